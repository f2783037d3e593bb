#include "lanes/lane_annotations.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "breakerlab/core/outcome/fleet.h"
#include "lanes/label_layout.h"
#include "lanes/lanes_tr.h"

namespace breakerlab::views {

namespace {

bool isPodEvent(const Event& e) {
  return e.kind == EventKind::pod_ejected || e.kind == EventKind::pod_returned;
}

// A state of the fleet's lane with a pod open in it ("3 of 40 open", "all open"), not one with
// pods half-open only ("2 of 40 half-open").
bool fleetOpen(std::string_view state) {
  return state.ends_with("open") && !state.ends_with("half-open");
}

struct Spell {
  Micros from = 0, to = 0;
};

// The fleet lane's open spells: runs of states other than "closed" holding a pod open.
std::vector<Spell> fleetSpells(const Lane& fleet) {
  std::vector<Spell> spells;
  std::optional<Spell> run;
  bool open = false;
  auto end = [&] {
    if (run && open) spells.push_back(*run);
    run.reset();
    open = false;
  };
  for (const LaneInterval& i : fleet.intervals) {
    if (i.state == "closed") {
      end();
      continue;
    }
    if (run && run->to != i.from) end();
    if (!run) run = Spell{i.from, i.to};
    run->to = i.to;
    open = open || fleetOpen(i.state);
  }
  end();
  return spells;
}

QString laneName(const Lane& lane, std::uint32_t pod) {
  return lane.name.empty() ? QStringLiteral("pod %1").arg(pod + 1)
                           : QString::fromStdString(lane.name);
}

}  // namespace

QString podTitle(std::span<const Lane> pods, std::uint32_t pod) {
  return pod < pods.size() ? laneName(pods[pod], pod) : QStringLiteral("pod %1").arg(pod + 1);
}

QString spanText(double s) {
  if (s < 100) return bracketSeconds(s) + QStringLiteral(" s");
  const auto whole = static_cast<long long>(std::llround(s));
  if (whole < 7200) {
    const long long m = whole / 60, rest = whole % 60;
    return rest == 0 ? lanesTr("%1 min").arg(m) : lanesTr("%1 min %2 s").arg(m).arg(rest);
  }
  const long long minutes = (whole + 30) / 60;
  const long long h = minutes / 60, m = minutes % 60;
  return m == 0 ? lanesTr("%1 h").arg(h) : lanesTr("%1 h %2 min").arg(h).arg(m);
}

std::vector<PodReopen> podReopens(std::span<const Lane> pods, const Lane& fleet) {
  std::vector<PodReopen> out;
  const std::vector<Spell> spells = fleetSpells(fleet);
  if (spells.empty()) return out;
  for (std::uint32_t pod = 0; pod < pods.size(); ++pod) {
    const auto& intervals = pods[pod].intervals;
    std::size_t spell = 0;
    bool closed_after_open = false;  // within the current spell
    bool opened = false;
    for (std::size_t k = 0; k < intervals.size(); ++k) {
      const LaneInterval& i = intervals[k];
      while (spell < spells.size() && spells[spell].to <= i.from) {
        ++spell;
        opened = closed_after_open = false;
      }
      if (spell == spells.size()) break;
      if (i.from < spells[spell].from) continue;
      if (i.state == "open") {
        const bool from_closed = k > 0 && intervals[k - 1].state == "closed";
        if (from_closed && closed_after_open) out.push_back({i.from, pod});
        opened = true;
      } else if (i.state == "closed" && opened) {
        closed_after_open = true;
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const PodReopen& a, const PodReopen& b) {
    return a.at != b.at ? a.at < b.at : a.pod < b.pod;
  });
  return out;
}

std::vector<LaneBracket> fleetBrackets(std::span<const Lane> pods, const Lane& fleet) {
  std::vector<LaneBracket> out;
  if (fleet.intervals.empty()) return out;
  const Micros lane_end = fleet.intervals.back().to;
  for (const Spell& spell : fleetSpells(fleet)) {
    // The first pod to open in the spell; at equal times the lowest.
    std::optional<std::uint32_t> first;
    Micros first_at = kNever;
    // The last pod to leave a state other than closed at the spell's end, and what it went to.
    std::optional<std::uint32_t> last;
    std::string_view last_to;
    std::uint32_t open_at_end = 0;
    for (std::uint32_t pod = 0; pod < pods.size(); ++pod) {
      const auto& intervals = pods[pod].intervals;
      for (std::size_t k = 0; k < intervals.size(); ++k) {
        const LaneInterval& i = intervals[k];
        if (i.state == "open" && i.from >= spell.from && i.from < spell.to && i.from < first_at) {
          first = pod;
          first_at = i.from;
        }
        if (k > 0 && i.from == spell.to && intervals[k - 1].state != "closed" &&
            intervals[k - 1].state != kPodOutOfService && !last) {
          last = pod;
          last_to = i.state;
        }
        if (spell.to == lane_end && k + 1 == intervals.size() && i.to == lane_end &&
            i.state != "closed" && i.state != kPodOutOfService)
          ++open_at_end;
      }
    }
    const QString span = spanText(toSeconds(spell.to - spell.from));
    const QString from = first ? podTitle(pods, *first) : lanesTr("a pod");
    LaneBracket b{toSeconds(spell.from), toSeconds(spell.to), 1, {}, {}};
    if (spell.to == lane_end && !last) {
      const QString still = open_at_end == 1
                                ? lanesTr("1 pod not closed at the end")
                                : lanesTr("%1 pods not closed at the end").arg(open_at_end);
      b.label = lanesTr("%1 first open · %2 · %3").arg(from, still, span);
      b.short_label = lanesTr("%1 first open · %2").arg(from, span);
    } else {
      const QString to = last ? podTitle(pods, *last) : lanesTr("a pod");
      const QString how = last_to == kPodOutOfService ? lanesTr("removed") : lanesTr("last closed");
      b.label = lanesTr("%1 first open → %2 %3 · %4").arg(from, to, how, span);
      b.short_label = lanesTr("%1 → %2 · %3").arg(from, to, span);
    }
    out.push_back(std::move(b));
  }
  return out;
}

QString transitionLabel(const Event& e) {
  if (e.kind == EventKind::half_open)
    return e.label.find("health") != std::string::npos ? lanesTr("half-open: health green")
                                                       : lanesTr("half-open");
  return QString::fromStdString(e.label);
}

QString clusterSummary(std::span<const Event* const> events) {
  int trips = 0, reopens = 0, closes = 0, half_opens = 0, health = 0;
  for (const Event* e : events) {
    switch (e->kind) {
      case EventKind::trip:
        ++trips;
        break;
      case EventKind::reopen:
        ++reopens;
        break;
      case EventKind::close:
        ++closes;
        break;
      case EventKind::half_open:
        ++half_opens;
        break;
      case EventKind::health_green:
      case EventKind::health_red:
        ++health;
        break;
      default:
        break;
    }
  }
  auto count = [](int n, const char* one, const char* many) {
    return n == 1 ? lanesTr(one) : lanesTr(many).arg(QLocale().toString(n));
  };
  QStringList parts;
  if (trips) parts << count(trips, "1 trip", "%1 trips");
  if (reopens) parts << count(reopens, "1 reopen", "%1 reopens");
  if (closes) parts << count(closes, "1 close", "%1 closes");
  if (parts.isEmpty() && half_opens) parts << count(half_opens, "1 half-open", "%1 half-opens");
  if (health) parts << count(health, "1 health change", "%1 health changes");
  return parts.join(QStringLiteral(", "));
}

QString podEventsLabel(std::span<const Event* const> events) {
  int ejected = 0, returned = 0;
  for (const Event* e : events) (e->kind == EventKind::pod_ejected ? ejected : returned) += 1;
  if (events.size() == 1) {
    // "pod 3 ejected by the load balancer (6 of 8)" -> "pod 3 ejected"
    const QString pod = QString::fromStdString(events.front()->label).section(' ', 0, 1);
    return ejected ? lanesTr("%1 ejected").arg(pod) : lanesTr("%1 back").arg(pod);
  }
  return lanesTr("pods: %1 ejected, %2 back").arg(ejected).arg(returned);
}

QString podReopensLabel(std::span<const Lane> pods, std::span<const PodReopen> reopens) {
  std::set<std::uint32_t> distinct;
  for (const PodReopen& r : reopens) distinct.insert(r.pod);
  if (distinct.empty()) return {};
  if (distinct.size() == 1) {
    const QString pod = podTitle(pods, *distinct.begin());
    return reopens.size() == 1 ? lanesTr("%1 reopened").arg(pod)
                               : lanesTr("%1 reopened %2 times").arg(pod).arg(reopens.size());
  }
  if (distinct.size() <= 3) {
    // "pods 3, 7 reopened" when they are all "pod N"; their names otherwise.
    QStringList names;
    bool numbered = true;
    for (std::uint32_t pod : distinct) {
      const QString name = podTitle(pods, pod);
      numbered = numbered && name.startsWith(QStringLiteral("pod "));
      names << name;
    }
    if (numbered) {
      for (QString& name : names) name.remove(0, 4);
      return lanesTr("pods %1 reopened").arg(names.join(QStringLiteral(", ")));
    }
    return lanesTr("%1 reopened").arg(names.join(QStringLiteral(", ")));
  }
  return lanesTr("%1 pods reopened").arg(distinct.size());
}

std::vector<double> podEventMarks(std::span<const Event> events) {
  std::vector<double> marks;
  for (const Event& e : events)
    if (isPodEvent(e)) marks.push_back(toSeconds(e.at));
  std::sort(marks.begin(), marks.end());
  return marks;
}

EventAnnotations eventAnnotations(const Result& result, std::span<const PodReopen> reopens,
                                  const TimeToPixels& axis, const EventJoins& joins) {
  EventAnnotations out;
  std::vector<const Event*> transitions;
  std::vector<double> xs;
  for (const Event& e : result.events) {
    if (e.kind == EventKind::probe || isPodEvent(e)) continue;
    const double t = toSeconds(e.at);
    const double x = axis.x(t);
    if (!axis.onScreen(x)) continue;
    if (e.kind == EventKind::change) {
      out.markers.push_back({t, EventMarker::From::lanes_top, true});
      out.labels.push_back({t, QString::fromStdString(e.label), false, {}});
      continue;
    }
    transitions.push_back(&e);
    xs.push_back(x);
  }
  for (const Cluster& c : clusterCrowds(xs, joins.transitions, joins.crowd, joins.crowd_from)) {
    if (c.size() < joins.fold_from) {
      for (std::size_t i = c.begin; i < c.end; ++i) {
        const double t = toSeconds(transitions[i]->at);
        out.markers.push_back({t, EventMarker::From::lanes_top, false});
        out.labels.push_back({t, transitionLabel(*transitions[i]), false, {}});
      }
      continue;
    }
    // A cluster: a bar under the lanes from its first event to its last, and a count.
    const double from = toSeconds(transitions[c.begin]->at);
    out.cluster_bars.emplace_back(from, toSeconds(transitions[c.end - 1]->at));
    out.labels.push_back(
        {from, clusterSummary(std::span(transitions).subspan(c.begin, c.size())), false, {}});
  }

  // Pod ejections and returns: ticks in the pods row; nearby ones share a label, whose marker is
  // drawn with it only (a flapping load balancer makes dozens).
  std::vector<const Event*> pod_events;
  std::vector<double> pod_xs;
  for (const Event& e : result.events) {
    if (!isPodEvent(e)) continue;
    const double x = axis.x(toSeconds(e.at));
    if (!axis.onScreen(x)) continue;
    pod_events.push_back(&e);
    pod_xs.push_back(x);
  }
  auto joinFromFirst = [&](std::span<const double> positions) {
    // Each group runs while an event is within `joins.pods` of the group's previous one.
    std::vector<Cluster> groups;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      if (groups.empty() || positions[i] - positions[i - 1] >= joins.pods) groups.push_back({i, i});
      groups.back().end = i + 1;
    }
    return groups;
  };
  for (const Cluster& c : joinFromFirst(pod_xs)) {
    const double t = toSeconds(pod_events[c.begin]->at);
    out.labels.push_back({t, podEventsLabel(std::span(pod_events).subspan(c.begin, c.size())), true,
                          EventMarker{t, EventMarker::From::pods_row, false}});
  }

  // Reopened pods, the same way, marked from the fleet row.
  std::vector<PodReopen> shown;
  std::vector<double> reopen_xs;
  for (const PodReopen& r : reopens) {
    const double x = axis.x(toSeconds(r.at));
    if (!axis.onScreen(x)) continue;
    shown.push_back(r);
    reopen_xs.push_back(x);
  }
  for (const Cluster& c : joinFromFirst(reopen_xs)) {
    const double t = toSeconds(shown[c.begin].at);
    out.labels.push_back(
        {t, podReopensLabel(result.pod_breakers, std::span(shown).subspan(c.begin, c.size())), true,
         EventMarker{t, EventMarker::From::fleet_row, false}});
  }
  return out;
}

}  // namespace breakerlab::views
