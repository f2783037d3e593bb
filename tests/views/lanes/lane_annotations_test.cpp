// The lanes' annotation text from hand-made lanes and events, no widget and no replay (as hotspot
// tests its TimeLineData apart from the delegate): the fleet's brackets naming pods, reopened
// pods, the labels under the lanes and how they fold.
#include "lanes/lane_annotations.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "breakerlab/core/outcome/fleet.h"

namespace breakerlab::views {
namespace {

using Spans = std::initializer_list<std::tuple<const char*, double, double>>;

// A lane of (state, from, to) in seconds.
Lane lane(const char* name, Spans spans) {
  Lane l{name, {}};
  for (const auto& [state, from, to] : spans) l.append(state, fromSeconds(from), fromSeconds(to));
  return l;
}

std::vector<Lane> pods(std::initializer_list<Spans> each) {
  std::vector<Lane> out;
  for (const Spans& spans : each)
    out.push_back(lane(("pod " + std::to_string(out.size() + 1)).c_str(), spans));
  return out;
}

std::vector<std::pair<double, std::uint32_t>> asSeconds(const std::vector<PodReopen>& reopens) {
  std::vector<std::pair<double, std::uint32_t>> out;
  for (const PodReopen& r : reopens) out.emplace_back(toSeconds(r.at), r.pod);
  return out;
}

TEST(PodReopens, APodThatOpensAgainAfterClosingWithinTheFleetsSpell) {
  const struct {
    const char* what;
    std::vector<Lane> pods;
    Lane fleet;
    std::vector<std::pair<double, std::uint32_t>> want;
  } cases[] = {
      {"trips, closes, trips again while the other pod keeps the fleet open",
       pods({{{"closed", 0, 10},
              {"open", 10, 20},
              {"half-open", 20, 21},
              {"closed", 21, 30},
              {"open", 30, 40},
              {"closed", 40, 60}},
             {{"closed", 0, 12}, {"open", 12, 45}, {"closed", 45, 60}}}),
       lane("fleet", {{"closed", 0, 10},
                      {"1 of 2 open", 10, 12},
                      {"all open", 12, 20},
                      {"1 of 2 open", 20, 30},
                      {"all open", 30, 40},
                      {"1 of 2 open", 40, 45},
                      {"closed", 45, 60}}),
       {{30, 0}}},
      {"a failed probe (half-open, then open) is not a reopen: the pod never closed",
       pods({{{"closed", 0, 10},
              {"open", 10, 20},
              {"half-open", 20, 21},
              {"open", 21, 30},
              {"closed", 30, 60}}}),
       lane("fleet", {{"closed", 0, 10},
                      {"all open", 10, 20},
                      {"1 of 1 half-open", 20, 21},
                      {"all open", 21, 30},
                      {"closed", 30, 60}}),
       {}},
      {"a trip in the fleet's next spell starts that spell: not a reopen",
       pods({{{"closed", 0, 10},
              {"open", 10, 20},
              {"closed", 20, 40},
              {"open", 40, 50},
              {"closed", 50, 60}}}),
       lane("fleet", {{"closed", 0, 10},
                      {"all open", 10, 20},
                      {"closed", 20, 40},
                      {"all open", 40, 50},
                      {"closed", 50, 60}}),
       {}},
      {"two pods, in time order, the same time by pod",
       pods({{{"closed", 0, 5},
              {"open", 5, 8},
              {"closed", 8, 20},
              {"open", 20, 25},
              {"closed", 25, 60}},
             {{"closed", 0, 6},
              {"open", 6, 7},
              {"closed", 7, 15},
              {"open", 15, 18},
              {"closed", 18, 20},
              {"open", 20, 26},
              {"closed", 26, 60}}}),
       lane("fleet", {{"closed", 0, 5}, {"1 of 2 open", 5, 26}, {"closed", 26, 60}}),
       {{15, 1}, {20, 0}, {20, 1}}},
      {"no fleet spell, nothing",
       pods({{{"closed", 0, 60}}}),
       lane("fleet", {{"closed", 0, 60}}),
       {}},
  };
  for (const auto& c : cases) EXPECT_EQ(asSeconds(podReopens(c.pods, c.fleet)), c.want) << c.what;
}

TEST(FleetBrackets, EachSpellFromTheFirstPodOpenToTheLastPodClosed) {
  const struct {
    const char* what;
    std::vector<Lane> pods;
    Lane fleet;
    std::vector<std::tuple<double, double, std::string, std::string>> want;
  } cases[] = {
      {"pod 2 opens first, pod 1 closes last",
       pods({{{"closed", 0, 12}, {"open", 12, 35}, {"half-open", 35, 40}, {"closed", 40, 60}},
             {{"closed", 0, 10}, {"open", 10, 30}, {"closed", 30, 60}}}),
       lane("fleet", {{"closed", 0, 10},
                      {"1 of 2 open", 10, 12},
                      {"all open", 12, 30},
                      {"1 of 2 open", 30, 35},
                      {"1 of 2 half-open", 35, 40},
                      {"closed", 40, 60}}),
       {{10, 40, "pod 2 first open → pod 1 last closed · 30 s", "pod 2 → pod 1 · 30 s"}}},
      {"pods opening together: the first by number; two spells, two brackets",
       pods({{{"closed", 0, 10},
              {"open", 10, 20},
              {"closed", 20, 30},
              {"open", 30, 32},
              {"closed", 32, 60}},
             {{"closed", 0, 10}, {"open", 10, 21}, {"closed", 21, 60}}}),
       lane("fleet", {{"closed", 0, 10},
                      {"all open", 10, 20},
                      {"1 of 2 open", 20, 21},
                      {"closed", 21, 30},
                      {"1 of 2 open", 30, 32},
                      {"closed", 32, 60}}),
       {{10, 21, "pod 1 first open → pod 2 last closed · 11 s", "pod 1 → pod 2 · 11 s"},
        {30, 32, "pod 1 first open → pod 1 last closed · 2 s", "pod 1 → pod 1 · 2 s"}}},
      {"open to the end: how many pods are not closed then",
       pods({{{"closed", 0, 40}, {"open", 40, 60}},
             {{"closed", 0, 45}, {"open", 45, 50}, {"half-open", 50, 60}},
             {{"closed", 0, 60}}}),
       lane("fleet", {{"closed", 0, 40},
                      {"1 of 3 open", 40, 45},
                      {"2 of 3 open", 45, 50},
                      {"1 of 3 open", 50, 60}}),
       {{40, 60, "pod 1 first open · 2 pods not closed at the end · 20 s",
         "pod 1 first open · 20 s"}}},
      {"a scale-in takes the last open pod away",
       pods({{{"closed", 0, 60}}, {{"closed", 0, 10}, {"open", 10, 25}, {"no pod", 25, 60}}}),
       lane("fleet", {{"closed", 0, 10}, {"1 of 2 open", 10, 25}, {"closed", 25, 60}}),
       {{10, 25, "pod 2 first open → pod 2 removed · 15 s", "pod 2 → pod 2 · 15 s"}}},
      {"half-open pods only (a pod entering service half-open) is no open spell",
       pods({{{"closed", 0, 10}, {"half-open", 10, 12}, {"closed", 12, 60}}}),
       lane("fleet", {{"closed", 0, 10}, {"1 of 1 half-open", 10, 12}, {"closed", 12, 60}}),
       {}},
      {"hours: in hours and minutes",
       pods({{{"closed", 0, 100}, {"open", 100, 7700}, {"closed", 7700, 9000}}}),
       lane("fleet", {{"closed", 0, 100}, {"all open", 100, 7700}, {"closed", 7700, 9000}}),
       {{100, 7700, "pod 1 first open → pod 1 last closed · 2 h 7 min",
         "pod 1 → pod 1 · 2 h 7 min"}}},
  };
  for (const auto& c : cases) {
    const std::vector<LaneBracket> got = fleetBrackets(c.pods, c.fleet);
    ASSERT_EQ(got.size(), c.want.size()) << c.what;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const auto& [from, to, label, short_label] = c.want[i];
      EXPECT_DOUBLE_EQ(got[i].from, from) << c.what;
      EXPECT_DOUBLE_EQ(got[i].to, to) << c.what;
      EXPECT_EQ(got[i].line, 1) << c.what << ": the line above the breaker's";
      EXPECT_EQ(got[i].label.toStdString(), label) << c.what;
      EXPECT_EQ(got[i].short_label.toStdString(), short_label) << c.what;
    }
  }
}

TEST(FleetBrackets, RecordedInstancesAreNamedAsRecorded) {
  std::vector<Lane> named = {lane("10.0.0.7:8080", {{"closed", 0, 5}, {"open", 5, 9}}),
                             lane("10.0.0.8:8080", {{"closed", 0, 60}})};
  named[0].append("closed", fromSeconds(9), fromSeconds(60));
  const Lane fleet = lane("fleet", {{"closed", 0, 5}, {"1 of 2 open", 5, 9}, {"closed", 9, 60}});
  const auto got = fleetBrackets(named, fleet);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].label.toStdString(),
            "10.0.0.7:8080 first open → 10.0.0.7:8080 last closed · 4 s");
}

TEST(FleetBrackets, TheReplaysBracketsEndWithTheFleetsSpells) {
  Result r;
  r.breaker = lane("breaker", {{"closed", 0, 10}, {"open", 10, 30}, {"closed", 30, 60}});
  r.pod_breakers =
      pods({{{"closed", 0, 10}, {"open", 10, 30}, {"closed", 30, 60}}, {{"closed", 0, 60}}});
  r.fleet = lane("fleet", {{"closed", 0, 10}, {"1 of 2 open", 10, 30}, {"closed", 30, 60}});
  r.metrics.time_to_trip_s = 2.9;
  const std::vector<LaneBracket> b = laneBrackets(r, "Pricing");
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].label.toStdString(), "2.9 s to trip");
  EXPECT_EQ(b[1].label.toStdString(), "open 20 s");
  EXPECT_EQ(b[2].label.toStdString(), "pod 1 first open → pod 1 last closed · 20 s");
  // One breaker: no fleet, no fleet bracket.
  r.pod_breakers.clear();
  r.fleet = {};
  EXPECT_EQ(laneBrackets(r, "Pricing").size(), 2u);
}

TEST(SpanText, SecondsThenMinutesThenHours) {
  const std::pair<double, const char*> cases[] = {
      {2.94, "2.9 s"},     {45, "45 s"},          {99.4, "99 s"},         {100, "1 min 40 s"},
      {120, "2 min"},      {3599, "59 min 59 s"}, {7199, "119 min 59 s"}, {7200, "2 h"},
      {7260, "2 h 1 min"}, {16140, "4 h 29 min"},
  };
  for (const auto& [s, text] : cases) EXPECT_EQ(spanText(s).toStdString(), text) << s;
}

TEST(PodReopensLabel, OnePodSeveralPodsManyPods) {
  const std::vector<Lane> fleet = pods({{}, {}, {}, {}, {}, {}, {}});
  const struct {
    std::vector<PodReopen> reopens;
    const char* want;
  } cases[] = {
      {{{0, 6}}, "pod 7 reopened"},
      {{{0, 6}, {5, 6}, {9, 6}}, "pod 7 reopened 3 times"},
      {{{0, 2}, {1, 6}, {2, 2}}, "pods 3, 7 reopened"},
      {{{0, 0}, {1, 1}, {2, 2}, {3, 3}}, "4 pods reopened"},
      {{}, ""},
  };
  for (const auto& c : cases)
    EXPECT_EQ(podReopensLabel(fleet, c.reopens).toStdString(), c.want) << c.want;
  const std::vector<Lane> named = {lane("a-1", {}), lane("b-2", {})};
  const std::vector<PodReopen> both = {{0, 0}, {1, 1}};
  EXPECT_EQ(podReopensLabel(named, both).toStdString(), "a-1, b-2 reopened");
}

Event event(double at, EventKind kind, std::string label, std::string lane = "breaker") {
  return {fromSeconds(at), kind, std::move(lane), std::move(label)};
}

TEST(EventLabels, ATransitionsOwnLabelAndACountOfAFold) {
  EXPECT_EQ(transitionLabel(event(1, EventKind::trip, "5 of 20 calls failed")).toStdString(),
            "5 of 20 calls failed");
  EXPECT_EQ(transitionLabel(event(1, EventKind::half_open, "half-open: open interval elapsed"))
                .toStdString(),
            "half-open");
  EXPECT_EQ(transitionLabel(event(1, EventKind::half_open, "half-open: health check green"))
                .toStdString(),
            "half-open: health green");

  const struct {
    std::vector<EventKind> kinds;
    const char* want;
  } cases[] = {
      {{EventKind::trip, EventKind::close, EventKind::trip}, "2 trips, 1 close"},
      {{EventKind::trip, EventKind::reopen, EventKind::reopen, EventKind::close},
       "1 trip, 2 reopens, 1 close"},
      {{EventKind::half_open, EventKind::half_open}, "2 half-opens"},
      {{EventKind::trip, EventKind::half_open}, "1 trip"},
      {{EventKind::health_red, EventKind::health_green, EventKind::trip},
       "1 trip, 2 health changes"},
  };
  for (const auto& c : cases) {
    std::vector<Event> events;
    for (EventKind k : c.kinds) events.push_back(event(0, k, ""));
    std::vector<const Event*> pointers;
    for (const Event& e : events) pointers.push_back(&e);
    EXPECT_EQ(clusterSummary(pointers).toStdString(), c.want) << c.want;
  }
}

TEST(EventLabels, PodEjectionsByPodOrCounted) {
  const Event out =
      event(1, EventKind::pod_ejected, "pod 3 ejected by the load balancer (6 of 8)", "pods");
  const Event back = event(2, EventKind::pod_returned, "pod 3 back in rotation (7 of 8)", "pods");
  const Event* one[] = {&out};
  const Event* other[] = {&back};
  const Event* both[] = {&out, &back, &out};
  EXPECT_EQ(podEventsLabel(one).toStdString(), "pod 3 ejected");
  EXPECT_EQ(podEventsLabel(other).toStdString(), "pod 3 back");
  EXPECT_EQ(podEventsLabel(both).toStdString(), "pods: 2 ejected, 1 back");
  const std::vector<Event> events = {out, event(1.5, EventKind::trip, "x"), back};
  EXPECT_EQ(podEventMarks(events), (std::vector<double>{1, 2})) << "a tick per pod event only";
}

// 60 s over 600 pixels from x = 100: 10 px a second.
constexpr TimeToPixels kAxis{0, 60, 100, 700};

std::vector<std::string> texts(const EventAnnotations& a) {
  std::vector<std::string> out;
  for (const EventLabel& l : a.labels) out.push_back(l.text.toStdString());
  return out;
}

TEST(EventAnnotations, TransitionsApartAreLabelledOneByOneAndCrowdedOnesCounted) {
  Result r;
  r.events = {event(5, EventKind::trip, "5 of 20 calls failed"),
              event(20, EventKind::half_open, "half-open: open interval elapsed"),
              event(30, EventKind::probe, "probe ok"),
              // Three within 12 px of each other: one cluster, counted.
              event(40, EventKind::trip, "a"), event(40.5, EventKind::close, "b"),
              event(41, EventKind::trip, "c"), event(70, EventKind::trip, "off screen")};
  const EventAnnotations a = eventAnnotations(r, {}, kAxis, {});
  EXPECT_EQ(texts(a),
            (std::vector<std::string>{"5 of 20 calls failed", "half-open", "2 trips, 1 close"}));
  ASSERT_EQ(a.markers.size(), 2u) << "the cluster has a bar, not three markers";
  EXPECT_EQ(a.markers[0], (EventMarker{5, EventMarker::From::lanes_top, false}));
  ASSERT_EQ(a.cluster_bars.size(), 1u);
  EXPECT_DOUBLE_EQ(a.cluster_bars[0].first, 40);
  EXPECT_DOUBLE_EQ(a.cluster_bars[0].second, 41);
  // Zoomed in (one second over the 600 px), the cluster opens.
  const EventAnnotations zoomed = eventAnnotations(r, {}, {40, 41, 100, 700}, {});
  EXPECT_EQ(texts(zoomed), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(zoomed.cluster_bars.empty());
}

TEST(EventAnnotations, TenThousandTransitionsAreOneCount) {
  Result r;
  for (int i = 1; i < 10'000; ++i)
    r.events.push_back(event(i * 0.006, i % 2 ? EventKind::trip : EventKind::close, "x"));
  const EventAnnotations a = eventAnnotations(r, {}, kAxis, {});
  EXPECT_TRUE(a.markers.empty());
  ASSERT_EQ(a.labels.size(), 1u);
  const std::string text = a.labels[0].text.toStdString();
  EXPECT_TRUE(text == "5,000 trips, 4,999 closes" || text == "5000 trips, 4999 closes") << text;
}

TEST(EventAnnotations, ChangesComeFirstThenTransitionsThenPodsThenReopenedPods) {
  Result r;
  r.pod_breakers = pods({{}, {}, {}, {}, {}, {}, {}});
  r.events = {
      event(10, EventKind::pod_ejected, "pod 3 ejected by the load balancer (7 of 8)", "pods"),
      event(15, EventKind::trip, "trip"),
      event(30, EventKind::change, "runbook: scale 12 → 40 pods", "changes")};
  const std::vector<PodReopen> reopens = {{fromSeconds(50), 6}};
  const EventAnnotations a = eventAnnotations(r, reopens, kAxis, {});
  EXPECT_EQ(texts(a), (std::vector<std::string>{"runbook: scale 12 → 40 pods", "trip",
                                                "pod 3 ejected", "pod 7 reopened"}));
  EXPECT_TRUE(a.markers[0].change) << "the change's marker can be dragged";
  EXPECT_FALSE(a.labels[0].marker_with_label);
  // Pods' markers are drawn with their labels only, from their own rows.
  EXPECT_TRUE(a.labels[2].marker_with_label);
  EXPECT_EQ(a.labels[2].marker.from, EventMarker::From::pods_row);
  EXPECT_TRUE(a.labels[3].marker_with_label);
  EXPECT_EQ(a.labels[3].marker.from, EventMarker::From::fleet_row);
  EXPECT_DOUBLE_EQ(a.labels[3].t, 50);
}

TEST(EventAnnotations, AFlappingLoadBalancerSharesALabel) {
  Result r;
  for (int i = 0; i < 60; ++i) {  // pod 1 out and back every half second from 12 s to 42 s
    const bool out = i % 2 == 0;
    r.events.push_back(event(
        12 + i * 0.5, out ? EventKind::pod_ejected : EventKind::pod_returned,
        out ? "pod 1 ejected by the load balancer (7 of 8)" : "pod 1 back in rotation (8 of 8)",
        "pods"));
  }
  EventJoins joins;
  joins.pods = 90;  // pixels
  const EventAnnotations a = eventAnnotations(r, {}, kAxis, joins);
  EXPECT_EQ(texts(a), std::vector<std::string>{"pods: 30 ejected, 30 back"});
  // Zoomed to 12-14 s (300 px a second), events 150 px apart: a label each.
  const EventAnnotations zoomed = eventAnnotations(r, {}, {12, 14, 100, 700}, joins);
  EXPECT_EQ(texts(zoomed), (std::vector<std::string>{"pod 1 ejected", "pod 1 back", "pod 1 ejected",
                                                     "pod 1 back", "pod 1 ejected"}));
}

TEST(EventAnnotations, ReopenedPodsCloseTogetherShareALabel) {
  Result r;
  r.pod_breakers = pods({{}, {}, {}, {}, {}, {}, {}, {}, {}, {}});
  const std::vector<PodReopen> reopens = {{fromSeconds(10), 2},
                                          {fromSeconds(11), 6},
                                          {fromSeconds(12), 2},
                                          {fromSeconds(40), 9},
                                          {fromSeconds(90), 1}};
  const EventAnnotations a = eventAnnotations(r, reopens, kAxis, {});
  EXPECT_EQ(texts(a), (std::vector<std::string>{"pods 3, 7 reopened", "pod 10 reopened"}))
      << "the one off screen is left out";
}

}  // namespace
}  // namespace breakerlab::views
