#define EXTRA 2
