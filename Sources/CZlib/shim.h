// zlib, for inflating bodies Feedmill holds compressed (FeedFetching's BodyInflater). libcurl
// and libxml2 already load it. `inflateInit2` is a macro that Swift cannot call.
#ifndef FEEDMILL_CZLIB_SHIM_H
#define FEEDMILL_CZLIB_SHIM_H
#include <zlib.h>

static inline int feedmill_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
