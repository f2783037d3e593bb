// HttpGet over libcurl (see breakerlab/data/http_get.h): the data library's one network call.
#include <curl/curl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "breakerlab/data/http_get.h"

namespace breakerlab {

namespace {

struct Body {
  std::string text;
  std::uint64_t max = 0;
  bool too_large = false;
};

std::size_t append(char* data, std::size_t size, std::size_t count, void* user) {
  auto* body = static_cast<Body*>(user);
  const std::size_t n = size * count;
  if (body->text.size() + n > body->max) {
    body->too_large = true;
    return 0;  // CURLE_WRITE_ERROR: the transfer stops here
  }
  body->text.append(data, n);
  return n;
}

struct Easy {
  CURL* handle = curl_easy_init();
  curl_slist* headers = nullptr;
  ~Easy() {
    curl_slist_free_all(headers);
    if (handle != nullptr) curl_easy_cleanup(handle);
  }
};

HttpError::Kind httpKindOf(CURLcode code) {
  switch (code) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
      return HttpError::Kind::bad_url;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return HttpError::Kind::resolve;
    case CURLE_COULDNT_CONNECT:
      return HttpError::Kind::connect;
    case CURLE_OPERATION_TIMEDOUT:
      return HttpError::Kind::timeout;
    case CURLE_FILESIZE_EXCEEDED:
      return HttpError::Kind::too_large;
    default:
      return HttpError::Kind::transport;
  }
}

class CurlHttpGet final : public HttpGet {
 public:
  CurlHttpGet() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }

  HttpResponse get(const HttpRequest& request) override {
    Easy easy;
    if (easy.handle == nullptr) throw HttpError(HttpError::Kind::transport, "libcurl: no handle");
    CURL* h = easy.handle;
    char error[CURL_ERROR_SIZE] = {};
    Body body;
    body.max = request.max_body_bytes;
    const long timeout_ms = static_cast<long>(std::max<std::int64_t>(request.timeout.count(), 1));
    for (const std::string& header : request.headers)
      easy.headers = curl_slist_append(easy.headers, header.c_str());
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 3L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for DNS timeouts: threads are safe
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl decodes (gzip)
    curl_easy_setopt(h, CURLOPT_USERAGENT, "breakerlab/" BREAKERLAB_VERSION);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, easy.headers);
    curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(body.max));
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &append);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
    const CURLcode code = curl_easy_perform(h);
    if (body.too_large || code == CURLE_FILESIZE_EXCEEDED)
      throw HttpError(HttpError::Kind::too_large,
                      "the answer is longer than " + std::to_string(body.max) + " bytes");
    if (code != CURLE_OK) {
      std::string message = error[0] != '\0' ? error : curl_easy_strerror(code);
      while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
      throw HttpError(httpKindOf(code), message);
    }
    HttpResponse out;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
    const char* type = nullptr;
    if (curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type != nullptr)
      out.content_type = type;
    out.body = std::move(body.text);
    return out;
  }
};

}  // namespace

std::unique_ptr<HttpGet> makeCurlHttpGet() {
  return std::make_unique<CurlHttpGet>();
}

}  // namespace breakerlab
