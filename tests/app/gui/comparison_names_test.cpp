// The B list's names, made distinct (distinctNames): the list finds B by its name, so two runs
// saved under one name were one entry twice (the second walkthrough of issue #33).
#include <gtest/gtest.h>

#include "comparison_slot.h"

namespace breakerlab::app {
namespace {

TEST(ComparisonNames, EveryEntryHasANameOfItsOwn) {
  struct Case {
    QStringList names;
    QStringList reserved;
    QStringList distinct;
  };
  const QStringList list_entries = {"deployed", "config file…"};
  const Case cases[] = {
      {{}, list_entries, {}},
      {{"what-if early-probe", "tuned"}, list_entries, {"what-if early-probe", "tuned"}},
      // The first keeps its name; the later ones are numbered from 2, in order.
      {{"tuned", "tuned", "tuned"}, list_entries, {"tuned", "tuned (2)", "tuned (3)"}},
      // A run called like one of the list's own entries.
      {{"deployed"}, list_entries, {"deployed (2)"}},
      // A number another entry already has is skipped, and that entry keeps its name.
      {{"x", "x", "x (2)"}, list_entries, {"x", "x (3)", "x (2)"}},
      {{"x (2)", "x", "x"}, list_entries, {"x (2)", "x", "x (3)"}},
      {{"a", "b", "a", "b"}, {}, {"a", "b", "a (2)", "b (2)"}},
  };
  for (const Case& c : cases) {
    const QStringList out = distinctNames(c.names, c.reserved);
    EXPECT_EQ(out, c.distinct) << c.names.join('|').toStdString() << " -> "
                               << out.join('|').toStdString();
    for (qsizetype i = 0; i < out.size(); ++i)
      for (qsizetype j = i + 1; j < out.size(); ++j) EXPECT_NE(out[i], out[j]);
  }
}

}  // namespace
}  // namespace breakerlab::app
