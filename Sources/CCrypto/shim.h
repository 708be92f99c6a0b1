// OpenSSL's libcrypto, for SHA-256 only. libcurl already loads it (libcurl4-openssl-dev),
// so it costs no new dependency, and its assembly (SHA-NI, AVX2) hashes about seven times
// faster than the pure Swift implementation it replaced. The low-level SHA256_* calls are
// deprecated in OpenSSL 3 in favour of EVP, but EVP's per-call algorithm lookup costs more
// than hashing a short entry field; they remain supported through the 3.x series.
#ifndef FEEDMILL_CCRYPTO_SHIM_H
#define FEEDMILL_CCRYPTO_SHIM_H
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

typedef struct feedmill_sha256_context { SHA256_CTX context; } feedmill_sha256_context;

static inline void feedmill_sha256_init(feedmill_sha256_context *c) { SHA256_Init(&c->context); }
static inline void feedmill_sha256_update(feedmill_sha256_context *c, const void *data, size_t count) {
    SHA256_Update(&c->context, data, count);
}
static inline void feedmill_sha256_final(feedmill_sha256_context *c, unsigned char digest[32]) {
    SHA256_Final(digest, &c->context);
}
static inline void feedmill_sha256(const void *data, size_t count, unsigned char digest[32]) {
    SHA256((const unsigned char *)data, count, digest);
}
#endif
