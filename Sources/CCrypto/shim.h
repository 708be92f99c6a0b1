// OpenSSL's libcrypto, for SHA-256 and Ed25519 (signed publications, issue 52). libcurl already loads it (libcurl4-openssl-dev),
// so it costs no new dependency, and its assembly (SHA-NI, AVX2) hashes about seven times
// faster than the pure Swift implementation it replaced. The low-level SHA256_* calls are
// deprecated in OpenSSL 3 in favour of EVP, but EVP's per-call algorithm lookup costs more
// than hashing a short entry field; they remain supported through the 3.x series.
#ifndef FEEDMILL_CCRYPTO_SHIM_H
#define FEEDMILL_CCRYPTO_SHIM_H
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>

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

/* Ed25519 through EVP (RFC 8032, as OpenSSL implements it): a 32-byte seed is the private
 * key. Each returns 1 on success, 0 otherwise. */
static inline int feedmill_ed25519_public_key(const unsigned char seed[32], unsigned char key[32]) {
    EVP_PKEY *pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    if (!pkey) return 0;
    size_t length = 32;
    int ok = EVP_PKEY_get_raw_public_key(pkey, key, &length) == 1 && length == 32;
    EVP_PKEY_free(pkey);
    return ok;
}
static inline int feedmill_ed25519_sign(const unsigned char seed[32], const void *message, size_t count, unsigned char signature[64]) {
    EVP_PKEY *pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t length = 64;
    int ok = pkey && context && EVP_DigestSignInit(context, NULL, NULL, NULL, pkey) == 1
        && EVP_DigestSign(context, signature, &length, (const unsigned char *)message, count) == 1 && length == 64;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(pkey);
    return ok;
}
static inline int feedmill_ed25519_verify(const unsigned char key[32], const void *message, size_t count, const unsigned char signature[64]) {
    EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, key, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = pkey && context && EVP_DigestVerifyInit(context, NULL, NULL, NULL, pkey) == 1
        && EVP_DigestVerify(context, signature, 64, (const unsigned char *)message, count) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(pkey);
    return ok;
}
/* HMAC (RFC 2104) with SHA-256, -384 or -512 (`bits`), for WebSub's X-Hub-Signature; 1 on
 * success. `out` holds 64 bytes; `count` is set to the MAC's length. */
static inline int feedmill_hmac(int bits, const void *key, size_t keyCount, const void *data, size_t count, unsigned char out[64], unsigned int *outCount) {
    const EVP_MD *md = bits == 256 ? EVP_sha256() : bits == 384 ? EVP_sha384() : bits == 512 ? EVP_sha512() : NULL;
    if (!md) return 0;
    static const unsigned char empty = 0;
    return HMAC(md, key ? key : &empty, (int)keyCount, data ? data : &empty, count, out, outCount) != NULL;
}
/* Compares in time independent of where the bytes differ: a MAC check must not say how much of a forgery was right. */
static inline int feedmill_equal_in_constant_time(const void *a, const void *b, size_t count) {
    return CRYPTO_memcmp(a, b, count) == 0;
}
#endif
