// A resilience4j config as users hold it: Spring Boot application.yml (or .properties) with
// resilience4j.circuitbreaker.instances.NAME and configs.NAME (baseConfig, the default config),
// or one instance's properties on their own.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "../yaml_prescan.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

Micros readSpringDuration(SettingsReader& r, const YAML::Node& v, const std::string& path);
void readResilience4jInstance(SettingsReader& r, const YAML::Node& node, const std::string& path,
                              Resilience4jSettings& p);

namespace {

std::string canonical(std::string_view key) {
  std::string out;
  for (char c : key)
    if (c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value of `key` in a map under Spring's relaxed names; undefined when absent.
YAML::Node relaxed(const YAML::Node& map, std::string_view key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : map)
    if (kv.first.IsScalar() && canonical(kv.first.Scalar()) == canonical(key)) return kv.second;
  return YAML::Node(YAML::NodeType::Undefined);
}

// The base config's keys, then the instance's, which win (ConfigUtils.mergePropertiesIfAny).
YAML::Node merged(const YAML::Node& base, const YAML::Node& instance) {
  YAML::Node out(YAML::NodeType::Map);
  std::map<std::string, std::string> seen;  // canonical -> key as written
  auto add = [&](const YAML::Node& m) {
    if (!m.IsMap()) return;
    for (const auto& kv : m) {
      const std::string k = kv.first.Scalar();
      if (canonical(k) == "baseconfig") continue;
      if (auto it = seen.find(canonical(k)); it != seen.end()) out.remove(it->second);
      seen[canonical(k)] = k;
      out[k] = kv.second;
    }
  };
  add(base);
  add(instance);
  return out;
}

}  // namespace

namespace {

// A map of the nested form while it is built: its entries in the order they first appear, found
// by key in constant time. Built with yaml-cpp directly it was quadratic: a Node finds a key by
// converting every key of the map to a string and comparing, and each map made on its own has
// its own memory that the next insertion copies (5,000 instances took 56 s, 10,000 257 s).
struct NestedMap;
struct Nested {
  // The file's node (a map among them when nothing under it changes: it keeps the positions of
  // its keys), or a map made here.
  YAML::Node node;
  std::unique_ptr<NestedMap> map;
  bool isMap() const { return map != nullptr || node.IsMap(); }
};
struct NestedMap {
  std::vector<std::pair<std::string, Nested>> entries;
  std::unordered_map<std::string, std::size_t> index;

  // The entry of `key`; appended, undefined, when absent.
  Nested& at(const std::string& key) {
    const auto [it, added] = index.try_emplace(key, entries.size());
    if (added) entries.emplace_back(key, Nested{});
    return entries[it->second].second;
  }
  // `key` set to `value`; a map over a map adds its entries to it (a key of both takes the later
  // value, as Spring's binder does with `a.b: {x: 1}` and then `a: {b: {y: 2}}`).
  void set(const std::string& key, Nested value);
};

// The map `n` holds, made here from the file's map when it is one.
NestedMap& expand(Nested& n) {
  if (!n.map) {
    auto map = std::make_unique<NestedMap>();
    if (n.node.IsMap())
      for (const auto& kv : n.node) map->at(kv.first.Scalar()) = {kv.second, nullptr};
    n = {YAML::Node(), std::move(map)};
  }
  return *n.map;
}

void NestedMap::set(const std::string& key, Nested value) {
  Nested& slot = at(key);
  if (slot.isMap() && value.isMap()) {
    NestedMap& into = expand(slot);
    if (value.map) {
      for (auto& [inner_key, inner] : value.map->entries) into.at(inner_key) = std::move(inner);
    } else {
      for (const auto& kv : value.node) into.at(kv.first.Scalar()) = {kv.second, nullptr};
    }
    return;
  }
  slot = std::move(value);
}

// resilience4j's keys are a handful of parts deep (resilience4j.circuitbreaker.instances.NAME.
// slidingWindowSize is five); a deeper key is not one of them, and the nested form it would become
// is that deep (a key of 200,000 parts crashed the reader).
constexpr std::size_t kMaxKeyParts = 32;

bool dotted(const std::string& key) {
  return key.find('.') != std::string::npos && key.front() != '[';
}

// Recursion as deep as the file's maps, which parseYaml bounds (64 levels). A map with no dotted
// key, no key twice and nothing changed under it is kept as it is: that is most of a file.
Nested nest(const Source& src, const YAML::Node& node) {
  if (!node.IsMap()) return {node, nullptr};
  std::vector<std::pair<std::string, Nested>> children;
  std::unordered_set<std::string> keys;
  bool same = true;
  for (const auto& kv : node) {
    std::string key = kv.first.Scalar();
    if (dotted(key) &&
        static_cast<std::size_t>(std::count(key.begin(), key.end(), '.')) >= kMaxKeyParts)
      fail(src, kv.first,
           "the key has more than " + std::to_string(kMaxKeyParts) +
               " parts (resilience4j's have at most six)");
    Nested value = nest(src, kv.second);
    same = same && !value.map && !dotted(key) && keys.insert(key).second;
    children.emplace_back(std::move(key), std::move(value));
  }
  if (same) return {node, nullptr};
  auto out = std::make_unique<NestedMap>();
  for (auto& [key, value] : children) {
    if (!dotted(key)) {
      out->set(key, std::move(value));
      continue;
    }
    NestedMap* cursor = out.get();
    std::size_t from = 0;
    for (;;) {
      const std::size_t dot = key.find('.', from);
      const std::string part = key.substr(from, dot == std::string::npos ? dot : dot - from);
      if (dot == std::string::npos) {
        cursor->set(part, std::move(value));
        break;
      }
      Nested& next = cursor->at(part);
      if (!next.isMap()) next = {YAML::Node(), std::make_unique<NestedMap>()};
      cursor = &expand(next);
      from = dot + 1;
    }
  }
  return {YAML::Node(), std::move(out)};
}

// Top down, so that every map made here shares the root's memory: yaml-cpp then merges the
// file's memory into it once, not once per map.
void fill(YAML::Node& out, const NestedMap& map) {
  for (const auto& [key, value] : map.entries) {
    if (value.map) {
      YAML::Node child(YAML::NodeType::Map);
      out.force_insert(key, child);
      fill(child, *value.map);
    } else {
      out.force_insert(key, value.node);
    }
  }
}

}  // namespace

// Spring flattens YAML to properties, so `resilience4j.circuitbreaker:` as one key is the same as
// the nested keys. The file's nodes are kept (with their positions) where no dotted key changes
// them; the maps made from dotted keys have new key nodes, without positions.
YAML::Node springNested(const Source& src, const YAML::Node& node) {
  Nested nested = nest(src, node);
  if (!nested.map) return nested.node;
  YAML::Node out(YAML::NodeType::Map);
  fill(out, *nested.map);
  return out;
}

namespace {

// The properties of a module's instance (resilience4j.timelimiter, resilience4j.retry) as
// Common*ConfigurationProperties.create*Config builds them: the instance named like the
// breaker's (else the first), merged over its baseConfig or over configs.default; with no
// instances, configs.default (what getInstanceProperties gives any name). Undefined when the
// module configures nothing.
YAML::Node moduleInstance(SettingsReader& r, const YAML::Node& module,
                          const std::string& module_key, const std::string& breaker_name,
                          std::string& path) {
  const Source& src = r.source();
  const YAML::Node configs = relaxed(module, "configs");
  YAML::Node instances = relaxed(module, "instances");
  if (!instances.IsDefined()) instances = relaxed(module, "backends");  // the legacy name
  const std::string prefix = "resilience4j." + module_key;
  if (!instances.IsDefined() || !instances.IsMap() || instances.size() == 0) {
    const YAML::Node fallback = relaxed(configs, "default");
    path = prefix + ".configs.default";
    return fallback.IsDefined() && fallback.IsMap() ? fallback
                                                    : YAML::Node(YAML::NodeType::Undefined);
  }
  auto chosen = instances.begin();
  for (auto it = instances.begin(); it != instances.end(); ++it)
    if (it->first.Scalar() == breaker_name) chosen = it;
  const std::string name = chosen->first.Scalar();
  if (instances.size() > 1 && name != breaker_name)
    r.remark(chosen->first, prefix + ".instances: " + std::to_string(instances.size()) +
                                " instances; BreakerLab takes '" + clipText(name) + "', the first");
  path = prefix + ".instances." + name;
  const YAML::Node instance = chosen->second;
  YAML::Node base(YAML::NodeType::Undefined);
  if (const YAML::Node base_name = relaxed(instance, "baseConfig"); base_name.IsDefined()) {
    base = relaxed(configs, base_name.IsScalar() ? base_name.Scalar() : std::string());
    if (!base.IsDefined())
      fail(src, base_name,
           "baseConfig: no config '" + clipText(base_name.IsScalar() ? base_name.Scalar() : "") +
               "' under " + prefix + ".configs");
  } else {
    base = relaxed(configs, "default");
  }
  return base.IsDefined() ? merged(base, instance) : instance;
}

// TimeLimiterConfig (resilience4j-timelimiter): timeoutDuration, 1 s by default, bounds each
// attempt: BreakerLab's timeout.attempt. Spring's aspect order puts it inside the breaker and the
// retry, so it times each attempt, not the request.
Micros readTimeLimiter(SettingsReader& r, const YAML::Node& props, const std::string& path) {
  Micros timeout = kSecond;
  r.forEach(props, path, {"timeoutDuration", "cancelRunningFuture", "baseConfig"},
            [&](const std::string& raw, const YAML::Node& v, const std::string& p_path) {
              const std::string key = canonical(raw);
              if (key == "timeoutduration") {
                timeout = readSpringDuration(r, v, p_path);
                // resilience4j takes 0 (every call times out at once); BreakerLab's attempt
                // timeout must be positive.
                if (timeout <= 0) failExpected(r.source(), v, p_path, "a positive duration");
              } else if (key == "cancelrunningfuture") {
                if (!r.boolean(v, p_path))
                  r.note(v, p_path +
                                ": false lets the call run on after the time limiter gave up, "
                                "holding its connection; BreakerLab frees the connection at the "
                                "timeout");
              } else if (key == "baseconfig" || key == "eventconsumerbuffersize") {
                // Resolved by moduleInstance; no effect on a decision.
              } else {
                return false;
              }
              return true;
            });
  return timeout;
}

// RetryConfig (resilience4j-retry) as CommonRetryConfigurationProperties builds it: maxAttempts
// (3, the first call included), waitDuration (500 ms, fixed), enableExponentialBackoff with
// exponentialBackoffMultiplier (IntervalFunction.DEFAULT_MULTIPLIER 1.5) and
// exponentialMaxWaitDuration (no cap when absent).
NativeRetry readResilience4jRetry(SettingsReader& r, const YAML::Node& props,
                                  const std::string& path) {
  NativeRetry retry;
  bool exponential = false;
  std::optional<YAML::Node> randomized_node;
  std::optional<double> multiplier;
  std::optional<Micros> max_wait;
  YAML::Node wait_node;
  r.forEach(props, path,
            {"maxAttempts", "waitDuration", "enableExponentialBackoff",
             "exponentialBackoffMultiplier", "exponentialMaxWaitDuration", "enableRandomizedWait",
             "randomizedWaitFactor", "retryExceptions", "ignoreExceptions", "baseConfig"},
            [&](const std::string& raw, const YAML::Node& v, const std::string& p_path) {
              const std::string key = canonical(raw);
              if (key == "maxattempts") {
                // BreakerLab's retry.max_attempts runs to 100; 0 keeps the default (buildConfig).
                const std::uint32_t n = r.whole(v, p_path, 0, 100);
                if (n > 0) retry.max_attempts = n;
              } else if (key == "waitduration") {
                retry.base = readSpringDuration(r, v, p_path);
                wait_node = v;
              } else if (key == "enableexponentialbackoff") {
                exponential = r.boolean(v, p_path);
              } else if (key == "exponentialbackoffmultiplier") {
                // IntervalFunction takes any multiplier; BreakerLab's backoff grows from 1 to 100.
                multiplier = r.number(v, p_path, 1, 100);
              } else if (key == "exponentialmaxwaitduration") {
                max_wait = readSpringDuration(r, v, p_path);
                if (*max_wait < kMillisecond)
                  failExpected(r.source(), v, p_path,
                               "at least 1 ms (IntervalFunction.checkInterval)");
              } else if (key == "enablerandomizedwait") {
                if (r.boolean(v, p_path)) randomized_node = v;
              } else if (key == "randomizedwaitfactor") {
                r.number(v, p_path, 0, 1);
              } else if (key == "retryexceptions" || key == "ignoreexceptions" ||
                         key == "retryexceptionpredicate" || key == "resultpredicate") {
                r.note(v, p_path +
                              ": which failures are retried stays the config's retry.retry_on "
                              "(BreakerLab does not map exception classes for the retry)");
              } else if (key == "baseconfig" || key == "eventconsumerbuffersize" ||
                         key == "failaftermaxattempts" || key == "writablestacktraceenabled") {
                // Resolved by moduleInstance, or no effect on when a call is retried.
              } else {
                return false;
              }
              return true;
            });
  if (exponential) {
    // configureExponentialBackoff: each interval is (long) (previous * multiplier) ms.
    if (retry.base < kMillisecond && wait_node.IsDefined())
      failExpected(r.source(), wait_node, path + ".waitDuration",
                   "at least 1 ms with enableExponentialBackoff (IntervalFunction.checkInterval)");
    retry.backoff = BackoffKind::exponential;
    retry.multiplier = multiplier.value_or(1.5);
    retry.max = max_wait.value_or(0);
  } else {
    retry.backoff = retry.base > 0 ? BackoffKind::fixed : BackoffKind::none;
  }
  if (randomized_node)
    r.note(*randomized_node, path +
                                 ".enableRandomizedWait: each wait is drawn with Math.random() "
                                 "around the interval; replayed at its mean, without jitter");
  return retry;
}

// Instances (or configs) under one module of one file. Applications configure a few dozen;
// BreakerLab reads one of them, and the rest cost memory and a walk each time a name is looked
// up. Counted after the file is read as YAML, whose own limits bound that work.
constexpr std::size_t kMaxInstances = 10'000;

// Fails at the first instance past kMaxInstances under `module`'s instances, backends or configs.
void requireFewInstances(const Source& src, const YAML::Node& module, const std::string& prefix) {
  for (const char* section : {"instances", "backends", "configs"}) {
    const YAML::Node named = relaxed(module, section);
    if (!named.IsMap() || named.size() <= kMaxInstances) continue;
    std::size_t n = 0;
    for (const auto& kv : named) {
      if (++n <= kMaxInstances) continue;
      // The keys were made anew by springNested (no position); the value is the file's.
      fail(src, kv.second,
           "more than " + std::to_string(kMaxInstances) + " " +
               (std::string_view(section) == "configs" ? "configs" : "instances") + " under " +
               prefix + "." + section);
    }
  }
}

// Spring's aspect order (lower runs outside): retryAspectOrder Ordered.LOWEST_PRECEDENCE - 5,
// circuitBreakerAspectOrder LOWEST_PRECEDENCE - 4 by default, so Retry wraps CircuitBreaker and
// every attempt passes the breaker.
std::int64_t aspectOrder(SettingsReader& r, const YAML::Node& module, std::string_view key,
                         std::int64_t lowest_minus, const std::string& path) {
  constexpr std::int64_t kLowestPrecedence = 2147483647;
  const YAML::Node v = relaxed(module, key);
  if (!v.IsDefined()) return kLowestPrecedence - lowest_minus;
  return static_cast<std::int64_t>(
      r.number(v, path + "." + std::string(key), -2147483648.0, 2147483647.0));
}

}  // namespace

void readResilience4jFile(SettingsReader& r, const YAML::Node& original, NativeReadOptions options,
                          NativeConfig& out) {
  Resilience4jSettings& p = out.native.resilience4j;
  const Source& src = r.source();
  const YAML::Node root = springNested(src, original);
  const YAML::Node top = relaxed(root, "resilience4j");
  YAML::Node cb = relaxed(top, "circuitbreaker");
  const YAML::Node limiter = relaxed(top, "timelimiter");
  const YAML::Node retry = relaxed(top, "retry");
  if (!cb.IsDefined()) {
    if (top.IsDefined() &&
        !(options.breaker_optional && (limiter.IsDefined() || retry.IsDefined())))
      fail(src, root, "resilience4j: no circuitbreaker section (resilience4j.circuitbreaker)");
    if (!top.IsDefined()) {
      // One instance's properties on their own.
      readResilience4jInstance(r, root, "", p);
      return;
    }
    out.has_breaker = false;
  }
  if (cb.IsDefined()) requireFewInstances(src, cb, "resilience4j.circuitbreaker");
  if (limiter.IsDefined()) requireFewInstances(src, limiter, "resilience4j.timelimiter");
  if (retry.IsDefined()) requireFewInstances(src, retry, "resilience4j.retry");
  // application.yml holds the whole application (spring:, server:, ...): BreakerLab reads
  // only resilience4j, and says so, since an export written from it carries nothing else.
  if (top.IsDefined())
    for (const auto& kv : root)
      if (canonical(kv.first.Scalar()) != "resilience4j")
        r.remark(kv.first, clipText(kv.first.Scalar()) +
                               ": not resilience4j; BreakerLab reads only the resilience4j "
                               "section of an application.yml");
  for (const auto& kv : top) {
    const std::string k = canonical(kv.first.Scalar());
    if (k != "circuitbreaker" && k != "timelimiter" && k != "retry")
      r.remark(kv.first, "resilience4j." + clipText(kv.first.Scalar()) +
                             ": not the breaker, time limiter or retry; BreakerLab's pool and "
                             "worker settings are its own knobs and are not imported from here");
  }
  if (out.has_breaker) {
    YAML::Node configs = relaxed(cb, "configs");
    YAML::Node instances = relaxed(cb, "instances");
    if (!instances.IsDefined()) instances = relaxed(cb, "backends");  // the legacy name
    if (!instances.IsDefined() || !instances.IsMap() || instances.size() == 0)
      fail(
          src, cb,
          "resilience4j.circuitbreaker: no instances (resilience4j.circuitbreaker.instances.NAME)");
    const auto first = instances.begin();
    p.name = first->first.Scalar();
    if (instances.size() > 1)
      r.remark(first->first,
               "resilience4j.circuitbreaker.instances: " + std::to_string(instances.size()) +
                   " instances; BreakerLab replays '" + clipText(p.name) + "', the first");
    const YAML::Node instance = first->second;
    YAML::Node base(YAML::NodeType::Undefined);
    if (const YAML::Node name = relaxed(instance, "baseConfig"); name.IsDefined()) {
      base = relaxed(configs, name.Scalar());
      if (!base.IsDefined())
        fail(src, name,
             "baseConfig: no config '" + clipText(name.Scalar()) +
                 "' under resilience4j.circuitbreaker.configs");
    } else {
      base = relaxed(configs, "default");  // the default config applies to every instance
    }
    const std::string path = "resilience4j.circuitbreaker.instances." + p.name;
    readResilience4jInstance(r, base.IsDefined() ? merged(base, instance) : instance, path, p);
  }

  std::string path;
  if (limiter.IsDefined()) {
    const YAML::Node props = moduleInstance(r, limiter, "timelimiter", p.name, path);
    if (props.IsDefined()) out.calls.attempt_timeout = readTimeLimiter(r, props, path);
  }
  if (retry.IsDefined()) {
    const YAML::Node props = moduleInstance(r, retry, "retry", p.name, path);
    if (props.IsDefined()) {
      out.calls.retry = readResilience4jRetry(r, props, path);
      if (out.has_breaker) {
        const bool breaker_outside =
            aspectOrder(r, cb, "circuitBreakerAspectOrder", 4, "resilience4j.circuitbreaker") <
            aspectOrder(r, retry, "retryAspectOrder", 5, "resilience4j.retry");
        out.calls.placement =
            breaker_outside ? BreakerPlacement::outside_retry : BreakerPlacement::inside_retry;
      }
    }
  }
}

// `.properties`: key=value lines (key: value too), # and ! comments, lists as a,b or key[0]=a.
// Turned into YAML whose leaf lines are mapped back to the properties file for errors.

namespace {
struct PropertyLeaf {
  std::string value;
  int line, column;
};
struct PropertyNode {
  // Parallel lists (a vector may hold the incomplete PropertyNode, a pair may not).
  std::vector<std::string> keys;
  std::vector<PropertyNode> children;
  std::vector<PropertyLeaf> items;  // a list
  std::vector<PropertyLeaf> value;  // at most one: a scalar
  std::unordered_map<std::string, std::size_t> index;
  PropertyNode& child(const std::string& key) {
    const auto [at, added] = index.try_emplace(key, keys.size());
    if (added) {
      keys.push_back(key);
      children.emplace_back();
    }
    return children[at->second];
  }
};

// Keys and values of the nested form. The YAML made from them is read by yaml-cpp (about 450
// bytes a value; its nodes are a key and a value each, and maps count once more in the YAML
// limit of 1000000 values), so this keeps that limit from being met first, with a message about
// YAML the user never wrote. Counted as the lines are read, so the error names the line.
constexpr std::size_t kMaxPropertyValues = 250'000;

std::string yamlQuoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

void emit(const PropertyNode& node, int depth, PropertiesYaml& out) {
  const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  for (std::size_t i = 0; i < node.keys.size(); ++i) {
    const std::string& key = node.keys[i];
    const PropertyNode& child = node.children[i];
    if (!child.value.empty() && child.children.empty() && child.items.empty()) {
      const PropertyLeaf& v = child.value.back();
      out.text += indent + yamlQuoted(key) + ": " + yamlQuoted(v.value) + "\n";
      out.origin.push_back({v.line, v.column});
      continue;
    }
    const int line = !child.value.empty()   ? child.value.back().line
                     : !child.items.empty() ? child.items.front().line
                                            : 0;
    out.text += indent + yamlQuoted(key) + ":\n";
    out.origin.push_back({line, 1});
    if (!child.items.empty()) {
      for (const PropertyLeaf& item : child.items) {
        out.text += indent + "  - " + yamlQuoted(item.value) + "\n";
        out.origin.push_back({item.line, item.column});
      }
    } else {
      emit(child, depth + 1, out);
    }
  }
}
}  // namespace

PropertiesYaml propertiesToYaml(std::string_view text, const std::string& file_name) {
  PropertyNode root;
  int line = 0;
  std::size_t pos = 0;
  std::size_t values = 0;  // nodes of the nested form (keys, lists' items, values)
  bool any = false;
  auto countValue = [&](int column) {
    if (++values > kMaxPropertyValues)
      throw LoadError(file_name, line, column,
                      "more than " + std::to_string(kMaxPropertyValues) +
                          " keys and values (once the properties are nested)");
  };
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view l =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line;
    std::size_t b = 0;
    while (b < l.size() && (l[b] == ' ' || l[b] == '\t')) ++b;
    if (b >= l.size() || l[b] == '#' || l[b] == '!') continue;
    const std::size_t sep = l.find_first_of("=:", b);
    if (sep == std::string_view::npos) continue;
    std::string key(l.substr(b, sep - b));
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::size_t v = sep + 1;
    while (v < l.size() && (l[v] == ' ' || l[v] == '\t')) ++v;
    std::string value(l.substr(v));
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
    const int key_column = static_cast<int>(b) + 1;
    if (static_cast<std::size_t>(std::count(key.begin(), key.end(), '.')) >= kMaxKeyParts)
      throw LoadError(file_name, line, key_column,
                      "the key has more than " + std::to_string(kMaxKeyParts) +
                          " parts (resilience4j's have at most six)");
    any = true;
    PropertyNode* node = &root;
    std::size_t s = 0;
    std::size_t index = 0;
    std::string first;
    bool element = false;
    // Whether `node` is resilience4j.MODULE.instances (backends, configs): its children are
    // instances.
    bool holds_instances = false;
    bool configs = false;
    for (;;) {
      const std::size_t d = key.find('.', s);
      std::string part = key.substr(s, d == std::string::npos ? std::string::npos : d - s);
      if (const std::size_t br = part.find('['); br != std::string::npos) {
        part.resize(br);
        element = true;
      }
      const std::size_t before = node->keys.size();
      PropertyNode& next = node->child(part);
      if (node->keys.size() != before) {
        const int column = key_column + static_cast<int>(s);
        countValue(column);
        if (holds_instances && node->keys.size() > kMaxInstances)
          throw LoadError(file_name, line, column,
                          "more than " + std::to_string(kMaxInstances) +
                              (configs ? " configs under " : " instances under ") +
                              key.substr(0, s - 1));
      }
      const std::string c = canonical(part);
      if (index == 0) first = c;
      holds_instances = index == 2 && first == "resilience4j" &&
                        (c == "instances" || c == "backends" || c == "configs");
      configs = c == "configs";
      node = &next;
      ++index;
      if (d == std::string::npos) break;
      s = d + 1;
    }
    const int column = static_cast<int>(v) + 1;
    countValue(column);
    if (element) {
      node->items.push_back({value, line, column});
    } else if (canonical(key).find("exceptions") != std::string::npos) {
      // A comma-separated list.
      std::size_t from = 0;
      for (;;) {
        const std::size_t c = value.find(',', from);
        std::string item =
            value.substr(from, c == std::string::npos ? std::string::npos : c - from);
        // At once: erasing a million leading spaces one at a time is quadratic.
        item.erase(0, std::min(item.find_first_not_of(' '), item.size()));
        while (!item.empty() && item.back() == ' ') item.pop_back();
        if (!item.empty()) {
          countValue(column + static_cast<int>(from));
          node->items.push_back({item, line, column});
        }
        if (c == std::string::npos) break;
        from = c + 1;
      }
    } else {
      node->value = {{value, line, column}};
    }
  }
  // Without this, the empty YAML would be "the file is empty" for a file of comments.
  if (!any)
    throw LoadError(file_name, 0, 0,
                    text.find_first_not_of(" \t\r\n") == std::string_view::npos
                        ? "the file is empty"
                        : "no properties (key=value lines) in the file");
  PropertiesYaml out;
  emit(root, 0, out);
  return out;
}

bool looksLikeProperties(std::string_view text, const std::string& file_name) {
  if (file_name.size() >= 11 && file_name.substr(file_name.size() - 11) == ".properties")
    return true;
  return text.find("resilience4j.circuitbreaker.") != std::string_view::npos &&
         text.find('=') != std::string_view::npos;
}

}  // namespace breakerlab::data_detail
