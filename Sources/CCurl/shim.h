#ifndef FEEDMILL_CCURL_SHIM_H
#define FEEDMILL_CCURL_SHIM_H

#include <curl/curl.h>
#include <sys/socket.h>
#include <netinet/in.h>

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

#endif
