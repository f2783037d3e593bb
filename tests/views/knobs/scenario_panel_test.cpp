// The Scenario group shows the model's labels and meanings through Qt's translation, in the
// context the model's table marks them with (core/basics/translatable.h), one row per key.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QTranslator>

#include "breakerlab/core/basics/translatable.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/views/scenario_panel.h"

namespace breakerlab::views {
namespace {

// A translator that answers every text of the scenario context with a marked copy, as a
// translation file would: what the panel shows must come through it.
class MarkingTranslator : public QTranslator {
 public:
  bool isEmpty() const override { return false; }
  QString translate(const char* context, const char* source, const char* = nullptr,
                    int = -1) const override {
    if (QString::fromUtf8(context) != QString::fromUtf8(kScenarioTrContext)) return {};
    return QStringLiteral("[") + QString::fromUtf8(source) + QStringLiteral("]");
  }
};

TEST(ScenarioPanel, EveryKeysLabelAndMeaningAreShownThroughTheTranslation) {
  MarkingTranslator translator;
  QCoreApplication::installTranslator(&translator);
  ScenarioPanel panel;
  QCoreApplication::removeTranslator(&translator);

  const auto* form = panel.findChild<QFormLayout*>();
  ASSERT_NE(form, nullptr);
  const auto keys = scenarioKeys();
  ASSERT_EQ(form->rowCount(), static_cast<int>(keys.size()));
  for (int row = 0; row < form->rowCount(); ++row) {
    const ScenarioKeyInfo& key = keys[static_cast<std::size_t>(row)];
    const auto* label = qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)->widget());
    const auto* box =
        qobject_cast<QDoubleSpinBox*>(form->itemAt(row, QFormLayout::FieldRole)->widget());
    ASSERT_NE(label, nullptr);
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(label->text(), "[" + QString::fromUtf8(key.label.data(), key.label.size()) + "]");
    EXPECT_EQ(box->toolTip(),
              "[" + QString::fromUtf8(key.meaning.data(), key.meaning.size()) + "]");
    EXPECT_EQ(box->objectName(), QString::fromUtf8(key.name.data(), key.name.size()));
  }
}

TEST(ScenarioPanel, WithoutATranslationTheModelsOwnWordsShow) {
  ScenarioPanel panel;
  const auto* form = panel.findChild<QFormLayout*>();
  ASSERT_NE(form, nullptr);
  const auto* label = qobject_cast<QLabel*>(form->itemAt(0, QFormLayout::LabelRole)->widget());
  ASSERT_NE(label, nullptr);
  const std::string_view first = scenarioKeys().front().label;
  EXPECT_EQ(label->text(), QString::fromUtf8(first.data(), first.size()));
}

}  // namespace
}  // namespace breakerlab::views
