/* toolkit.c - finding the CUDA toolkit (see toolkit.h). Looks at the
 * environment and the file system only; the caller owns the result. */
#define _GNU_SOURCE
#include "front/toolkit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool sm_toolkit_at(const char *root)
{
	char probe[PATH_MAX];
	if (snprintf(probe, sizeof(probe), "%s/include/cuda_runtime.h", root) >= (int)sizeof(probe))
		return false;
	return access(probe, R_OK) == 0;
}

/* root of an nvcc found in one PATH entry: <root>/bin/nvcc */
static bool nvcc_root(const char *dir, char *out, size_t n)
{
	char probe[PATH_MAX], real[PATH_MAX];
	if (snprintf(probe, sizeof(probe), "%s/nvcc", dir) >= (int)sizeof(probe))
		return false;
	if (access(probe, X_OK) != 0 || !realpath(probe, real))
		return false;
	for (int up = 0; up < 2; up++) {
		char *s = strrchr(real, '/');
		if (!s)
			return false;
		*s = 0;
	}
	if (snprintf(out, n, "%s", real) >= (int)n)
		return false;
	return sm_toolkit_at(out);
}

const char *sm_toolkit_find(char *buf, size_t n)
{
	const char *env = getenv("CUDA_PATH");
	if (env && *env && sm_toolkit_at(env) && snprintf(buf, n, "%s", env) < (int)n)
		return buf;
	if (sm_toolkit_at("/usr/local/cuda") && snprintf(buf, n, "%s", "/usr/local/cuda") < (int)n)
		return buf;
	const char *path = getenv("PATH");
	char *copy = path ? strdup(path) : NULL;
	const char *res = NULL;
	char *save = NULL;
	for (char *tok = copy ? strtok_r(copy, ":", &save) : NULL; tok; tok = strtok_r(NULL, ":", &save))
		if (nvcc_root(tok, buf, n)) {
			res = buf;
			break;
		}
	free(copy);
	return res;
}
