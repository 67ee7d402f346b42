// included by header_error.cu through header_error_outer.cuh: an error in a
// header, reported as header:line:col at the including line
#pragma once
__device__ int header_helper() { return undeclared_in_header; }
