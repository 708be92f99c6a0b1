// zlib, for inflating bodies Feedmill holds compressed (FeedFetching's BodyInflater), and
// gzipping rss-serve's JSON answers (FeedServing's Gzip). libcurl
// and libxml2 already load it. `inflateInit2` is a macro that Swift cannot call.
#ifndef FEEDMILL_CZLIB_SHIM_H
#define FEEDMILL_CZLIB_SHIM_H
#include <zlib.h>

static inline int feedmill_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
/* gzip for rss-serve's JSON answers: `deflateInit2` is a macro too. 31: a gzip header. */
static inline int feedmill_gzip_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
}
#endif
