#ifndef FEEDMILL_CCURL_SHIM_H
#define FEEDMILL_CCURL_SHIM_H

#include <curl/curl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
 * One typed wrapper per argument kind, as GRDB does for SQLite.
 */
static inline CURLcode feedmill_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode feedmill_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode feedmill_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode feedmill_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*feedmill_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode feedmill_curl_setopt_data_callback(CURL *handle, CURLoption option, feedmill_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

typedef int (*feedmill_curl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode feedmill_curl_setopt_xferinfo_callback(CURL *handle, feedmill_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode feedmill_curl_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode feedmill_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode feedmill_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode feedmill_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/*
 * One DNS cache for every easy handle of the process (a share handle). Each easy handle
 * otherwise keeps its own, an entry per host it resolved in the last minute: over 20,000
 * feeds on 1,000 hosts that was 3.7 MiB at concurrency 32, growing with the handles and the
 * hosts. libcurl calls the lock functions around every use; curl_share_setopt is variadic.
 */
typedef struct feedmill_share_locks { pthread_mutex_t locks[CURL_LOCK_DATA_LAST]; } feedmill_share_locks;

static void feedmill_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *context) {
    (void)handle; (void)access;
    pthread_mutex_lock(&((feedmill_share_locks *)context)->locks[data]);
}
static void feedmill_share_unlock(CURL *handle, curl_lock_data data, void *context) {
    (void)handle;
    pthread_mutex_unlock(&((feedmill_share_locks *)context)->locks[data]);
}

/* A share handle with the DNS cache shared, meant to live as long as the process; NULL on failure. */
static inline CURLSH *feedmill_curl_dns_share_create(void) {
    feedmill_share_locks *locks = malloc(sizeof *locks);
    if (!locks) return NULL;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&locks->locks[i], NULL);
    CURLSH *share = curl_share_init();
    if (!share
        || curl_share_setopt(share, CURLSHOPT_LOCKFUNC, feedmill_share_lock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, feedmill_share_unlock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_USERDATA, locks) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK) {
        if (share) curl_share_cleanup(share);
        free(locks);
        return NULL;
    }
    return share;
}

#endif
