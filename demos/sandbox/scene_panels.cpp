// The ImGui panels of a world scene: Scenes, Solver, Draw, Profile (with the solver-lab readouts).
// Every widget edits a copy of the SceneSettings, handed back through SceneView::SetSettings, so the
// panels, --settings and the tests go through one path.
#include "scene_view.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>

namespace mk::sandbox {
namespace {

constexpr float kPanelWidth = 300.0f;  // pixels

void PlotHistory(const char* label, const History& h, const char* unit) {
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%.3g %s (avg %.3g)", static_cast<double>(h.Latest()), unit,
                static_cast<double>(h.Average()));
  // PlotLines reads values[(offset + i) % count]: the oldest sample first once the ring is full.
  const int offset = h.count == History::kSize ? h.next : 0;
  ImGui::PlotLines(label, h.values.data(), h.count, offset, overlay, 0.0f, FLT_MAX, ImVec2(0, 36));
}

const char* ScenesPanel(SceneView& view, SceneSettings& s, const std::vector<const char*>& labNames) {
  if (!ImGui::CollapsingHeader("Scenes", ImGuiTreeNodeFlags_DefaultOpen)) return nullptr;
  const char* picked = DrawScenePicker(view.Info().name, labNames);
  ImGui::TextWrapped("%s", view.Info().description);
  if (view.Info().paramHelp[0] != '\0') {
    ImGui::TextDisabled("%s", view.Info().paramHelp);
    ImGui::InputInt("size", &s.params.size);
    ImGui::InputInt("count", &s.params.count);
    s.params.size = std::clamp(s.params.size, 0, 1000);
    s.params.count = std::clamp(s.params.count, 0, 1000);
  }
  return picked;
}

void SolverPanel(SceneView& view, SceneSettings& s) {
  if (!ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) return;
  SolverSettings& v = s.solver;
  int mode = v.mode == SolverMode::Classic ? 1 : 0;
  ImGui::RadioButton("soft step", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("classic (PGS)", &mode, 1);
  v.mode = mode == 1 ? SolverMode::Classic : SolverMode::SoftStep;
  if (v.mode == SolverMode::SoftStep) {
    ImGui::SliderInt("sub-steps", &v.subSteps, 1, 16);
    ImGui::SliderFloat("contact Hz", &v.contactHertz, 1.0f, 240.0f, "%.1f");
    ImGui::SliderFloat("damping ratio", &v.contactDampingRatio, 0.0f, 20.0f, "%.2f");
    ImGui::SliderFloat("static scale", &v.staticContactScale, 1.0f, 10.0f, "%.1f");
    ImGui::SliderFloat("push-out m/s", &v.contactPushMaxSpeed, 0.0f, 10.0f, "%.2f");
    ImGui::Checkbox("relax", &v.enableRelax);
    ImGui::SameLine();
    ImGui::Checkbox("warm start", &v.enableWarmStarting);
  } else {
    ImGui::SliderInt("iterations", &v.classicIterations, 1, 64);
    ImGui::SliderFloat("Baumgarte", &v.classicBaumgarte, 0.0f, 1.0f, "%.2f");
    ImGui::Checkbox("warm start", &v.enableWarmStarting);
  }
  ImGui::SliderFloat("joint Hz", &v.jointHertz, 1.0f, 240.0f, "%.1f");
  ImGui::SliderFloat("joint damping", &v.jointDampingRatio, 0.0f, 20.0f, "%.2f");
  ImGui::Checkbox("restitution", &v.enableRestitution);
  ImGui::SameLine();
  ImGui::Checkbox("sleep", &v.enableSleep);
  ImGui::SameLine();
  ImGui::Checkbox("continuous", &v.enableContinuous);
  ImGui::SliderFloat("bounce threshold m/s", &v.restitutionThreshold, 0.0f, 10.0f, "%.2f");
  ImGui::SliderFloat("linear slop m", &v.linearSlop, 0.0f, 0.05f, "%.4f");
  ImGui::SliderFloat("speculative m", &v.speculativeDistance, 0.0f, 0.2f, "%.3f");
  ImGui::SliderFloat("max speed m/s", &v.maxLinearSpeed, 1.0f, 1000.0f, "%.0f");
  ImGui::SliderFloat("time to sleep s", &v.timeToSleep, 0.0f, 5.0f, "%.2f");
  ImGui::SliderFloat2("gravity m/s^2", &s.gravity.x, -50.0f, 50.0f, "%.1f");
  ImGui::SliderFloat("step rate Hz", &s.stepHertz, 10.0f, 480.0f, "%.0f");
  if (ImGui::Button("Reset to defaults")) {
    SceneSettings defaults = DefaultSettings(view.Info());
    s.solver = defaults.solver;
    s.gravity = defaults.gravity;
    s.stepHertz = defaults.stepHertz;
  }
}

void DrawPanel(SceneSettings& s) {
  if (!ImGui::CollapsingHeader("Draw")) return;
  DrawToggles& t = s.draw;
  ImGui::Checkbox("shapes", &t.shapes);
  ImGui::Checkbox("AABBs", &t.aabbs);
  ImGui::Checkbox("broadphase: sweep intervals, pairs", &t.broadphase);
  ImGui::Checkbox("contact points", &t.contactPoints);
  ImGui::Checkbox("contact normals", &t.contactNormals);
  ImGui::Checkbox("contact impulses", &t.contactImpulses);
  ImGui::Checkbox("joints", &t.joints);
  ImGui::Checkbox("centres of mass", &t.centersOfMass);
  ImGui::Checkbox("islands (sleeping: grey)", &t.islands);
  ImGui::Checkbox("continuous: swept path and TOI pose", &t.continuous);
}

void ProfilePanel(SceneView& view) {
  if (!ImGui::CollapsingHeader("Profile", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const ProfileHistory& p = view.Profile();
  PlotHistory("step", p.step, "ms");
  PlotHistory("broadphase", p.broadphase, "ms");
  PlotHistory("narrowphase", p.narrowphase, "ms");
  PlotHistory("islands", p.islands, "ms");
  PlotHistory("solver", p.solver, "ms");
  const Counters c = view.GetWorld().GetCounters();
  const BroadPhaseStats bp = view.GetWorld().GetBroadPhase().Stats();
  ImGui::Text("bodies %d (awake %d), shapes %d", c.bodies, c.awakeBodies, c.shapes);
  ImGui::Text("contacts %d (touching %d), pairs %d", c.contacts, c.touchingContacts, bp.pairCount);
  ImGui::Text("joints %d, islands %d", c.joints, c.islands);
  ImGui::Text("narrowphase queries/step %.0f, avg %.2f GJK iterations",
              static_cast<double>(p.narrowphaseQueries.Latest()),
              static_cast<double>(p.gjkIterations.Average()));

  const Readouts& r = view.GetReadouts();
  ImGui::Separator();
  ImGui::Text("max penetration %.4f m", static_cast<double>(r.maxPenetration));
  ImGui::Text("kinetic energy  %.4g J", static_cast<double>(r.kineticEnergy));
  if (r.referenceTime >= 0.0f) {
    ImGui::Text("drift since %.1f s  %.4f m", static_cast<double>(r.referenceTime),
                static_cast<double>(r.drift));
  } else {
    ImGui::Text("drift: reference at %.0f s", static_cast<double>(SceneView::kDriftReferenceTime));
  }
  if (ImGui::Button("Reset drift reference")) view.ResetDriftReference();
}

}  // namespace

const char* DrawScenePicker(const char* current, const std::vector<const char*>& labNames) {
  const char* picked = nullptr;
  if (!ImGui::BeginCombo("scene", current, ImGuiComboFlags_HeightLarge)) return nullptr;
  for (const char* category : {"benchmark", "stress"}) {
    ImGui::TextDisabled("%s", category);
    for (const scenes::SceneInfo& info : scenes::SceneTable()) {
      if (std::string(info.category) != category) continue;
      if (ImGui::Selectable(info.name, std::string(info.name) == current)) picked = info.name;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.description);
    }
  }
  ImGui::TextDisabled("labs");
  for (const char* name : labNames) {
    if (ImGui::Selectable(name, std::string(name) == current)) picked = name;
  }
  ImGui::EndCombo();
  return picked;
}

const char* DrawScenePanels(SceneView& view, const std::vector<const char*>& labNames) {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
  // A fixed first size (not 0 = auto-fit): auto-fitting windows stay hidden on their first frame.
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, 690.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("Minkowski");
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::Text("%s  step %d  %.1f FPS", view.Info().name, view.StepCount(), static_cast<double>(io.Framerate));
  ImGui::PushItemWidth(-120.0f);
  SceneSettings s = view.Settings();
  const char* picked = ScenesPanel(view, s, labNames);
  SolverPanel(view, s);
  DrawPanel(s);
  ProfilePanel(view);
  ImGui::PopItemWidth();
  ImGui::End();
  if (FormatSettings(s) != FormatSettings(view.Settings())) view.SetSettings(s);
  return picked;
}

}  // namespace mk::sandbox
