// glibc allocator tuning (mallopt), which the Glibc Swift module does not expose.
#include <malloc.h>
