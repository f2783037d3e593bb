#pragma once
// One HTTP GET, behind an interface: `import --prometheus` asks it for each query, a test can
// answer for it, and the one real implementation (libcurl, data/src/import/prometheus_http.cpp)
// is the only code of the data library that touches the network.
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace breakerlab {

struct HttpRequest {
  std::string url;                   // http:// or https://, the query string included
  std::vector<std::string> headers;  // "Name: value" each, sent as given
  // The whole exchange (connect, send, every byte of the answer) is given up after this.
  std::chrono::milliseconds timeout{10'000};
  // A body longer than this is given up as soon as it is (never held whole).
  std::uint64_t max_body_bytes = 0;
};

struct HttpResponse {
  long status = 0;           // 200, 400, ...
  std::string content_type;  // as the server sent it; may be empty
  std::string body;
};

// No answer to use: the request never got one, or gave up on it. `what()` is the cause in
// words, with libcurl's own message ("Failed to connect to 127.0.0.1 port 9 after 0 ms:
// Couldn't connect to server").
class HttpError : public std::runtime_error {
 public:
  enum class Kind {
    bad_url,    // not a URL libcurl takes, or a scheme other than http/https
    resolve,    // the host name does not resolve
    connect,    // refused, or no route
    timeout,    // no complete answer within the timeout
    too_large,  // the body is longer than max_body_bytes
    transport,  // anything else on the way (TLS, a reset connection, a bad answer)
  };
  HttpError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

class HttpGet {
 public:
  virtual ~HttpGet() = default;
  // The server's answer, whatever its status; throws HttpError when there is none.
  virtual HttpResponse get(const HttpRequest& request) = 0;
};

// GET over libcurl: http and https only (redirects too, at most 3), gzip accepted, the
// environment's proxy settings (http_proxy, no_proxy) honoured as curl does.
std::unique_ptr<HttpGet> makeCurlHttpGet();

}  // namespace breakerlab
