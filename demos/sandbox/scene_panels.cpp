// SPDX-License-Identifier: MIT
// The ImGui panels of a world scene: Scenes, Solver, Draw, Profile (with the solver-lab readouts).
// Every widget edits a copy of the SceneSettings, handed back through SceneView::SetSettings, so the
// panels, --settings and the tests go through one path.
#include "inspector.h"
#include "panel_text.h"
#include "panel_ui.h"
#include "samples_browser.h"
#include "scene_view.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr float kPlotHeight = 24.0f;  // pixels

// One stage's history as a plot the panel's width, its name over it.
void StagePlot(const StageHistory& stage) {
  const History& h = *stage.history;
  // PlotLines reads values[(offset + i) % count]: the oldest sample first once the ring is full.
  const int offset = h.count == History::kSize ? h.next : 0;
  // ImGui 1.86's PlotLines takes its size as given (no "negative = up to the edge" as for other
  // widgets): a width of -FLT_MIN drew a frame of no width, so the width is what remains of the line.
  const ImVec2 size(ImGui::GetContentRegionAvail().x, kPlotHeight);
  ImGui::PushID(stage.name);
  ImGui::PlotLines("##plot", h.values.data(), h.count, offset, stage.name, 0.0f, FLT_MAX, size);
  ImGui::PopID();
}

// The scene's description is written for its default knobs ("4 levels"): say so when they differ.
void KnobsNote(const scenes::SceneInfo& info, const scenes::SceneParams& now) {
  const scenes::SceneParams d = info.defaults;
  if (now.size == d.size && now.count == d.count) return;
  if (now.size == 0 && now.count == 0) return;  // 0 means the default
  const scenes::SceneParams shown = scenes::ResolveParams(info, now);
  std::string note = "(that is at the defaults; now";
  if (shown.size != d.size) note += " size " + std::to_string(shown.size);
  if (shown.count != d.count) note += " count " + std::to_string(shown.count);
  note += ")";
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.4f, 1.0f));
  ImGui::TextWrapped("%s", note.c_str());
  ImGui::PopStyleColor();
}

// A replay shows the scene its file names; a file that names none is not the scene shown before.
bool UnnamedReplay(const SceneView& view) { return view.IsReplaying() && view.ReplayedScene() == nullptr; }
const char* ShownName(const SceneView& view) { return UnnamedReplay(view) ? "(a replay)" : view.Info().name; }

// Far away: the scene rebuilt at (d, d) m (SceneSettings::farAway), the camera following.
void FarAwayControl(const SceneView& view, SceneSettings& s) {
  if (view.IsReplaying()) return;  // a replay stands where it was recorded
  auto label = [](float d) {
    if (d == 0.0f) return std::string("at the origin");
    char text[32];
    std::snprintf(text, sizeof text, "%.0f km away", static_cast<double>(d) / 1000.0);
    return std::string(text);
  };
  if (ImGui::BeginCombo("far away", label(s.farAway).c_str())) {
    for (float d : kFarAwayChoices) {
      if (d > kMaxFarAway) break;
      if (ImGui::Selectable(label(d).c_str(), d == s.farAway)) s.farAway = d;
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(kLargeWorlds ? "The scene rebuilt at (d, d) m, drawn relative to the view:\n"
                                     "large-world build, up to 10,000 km."
                                   : "The scene rebuilt at (d, d) m, drawn relative to the view.\n"
                                     "This build holds floats to 100 km: up to 10 km here;\n"
                                     "the large-world build (MK_LARGE_WORLDS) goes to 10,000 km.");
  }
  if (kLargeWorlds && s.farAway != 0.0f) ImGui::Checkbox("world frame at zero", &s.farFrameAtZero);
}

const char* ScenesPanel(SceneView& view, SceneSettings& s) {
  if (!Section("Scenes", true)) return nullptr;
  PushLabelRoom("far away");  // the longest label of the section
  const char* picked = DrawScenePicker(ShownName(view));
  if (UnnamedReplay(view)) {
    ImGui::TextWrapped(
        "A recording that names no scene of this build (recorded before recordings named it).");
    ImGui::PopItemWidth();
    return picked;
  }
  ImGui::TextWrapped("%s", view.Info().description);
  KnobsNote(view.Info(), s.params);
  if (view.Info().paramHelp[0] != '\0' && !view.IsReplaying()) {
    ImGui::TextWrapped("%s", view.Info().paramHelp);
    ImGui::InputInt("size", &s.params.size);
    ImGui::InputInt("count", &s.params.count);
    s.params = ClampKnobs(view.Info(), s.params);  // the scene's own range: spinner counts 6,076
  }
  FarAwayControl(view, s);
  ImGui::PopItemWidth();
  return picked;
}

// An integer slider over the range --settings accepts for `key`.
void IntSlider(const char* label, const char* key, int& value) {
  const KeyRange range = RangeOf(key);
  ImGui::SliderInt(label, &value, static_cast<int>(range.lo), static_cast<int>(range.hi));
}

void SolverPanel(SceneView& view, SceneSettings& s) {
  if (!Section("Solver", true)) return;
  if (view.IsReplaying()) ImGui::TextWrapped("A replay runs with the settings it recorded.");
  PushLabelRoom("bounce threshold m/s");
  // Outside the replay's lock: the worker count changes the speed, never the result.
  IntSlider("workers", "workers", s.workers);
  // The pool holds its threads to the machine's (PoolThreads::AtMostHardware): say so when it does,
  // one thread included (a one-core machine runs every worker there).
  const std::string threads = PoolThreadsLine(view.WorkerThreads(), s.workers);
  if (!threads.empty()) ImGui::TextUnformatted(threads.c_str());
  if (s.workers > 1) {
    ImGui::RadioButton("faster##substeps", &s.subStepWorkers, 0);
    ImGui::SameLine();
    ImGui::RadioButton("workers##substeps", &s.subStepWorkers, 1);
    ImGui::SameLine();
    ImGui::RadioButton("w0##substeps", &s.subStepWorkers, 2);
    ImGui::SameLine();
    ImGui::TextUnformatted("sub-steps");
    if (ImGui::IsItemHovered() || ImGui::IsItemActive())
      ImGui::SetTooltip(
          "faster: the workers or w0 alone, whichever measures faster (the default).\n"
          "The same results every way.");
  }
  ImGui::BeginDisabled(view.IsReplaying());
  SolverSettings& v = s.solver;
  int mode = v.mode == SolverMode::Classic ? 1 : 0;
  ImGui::RadioButton("soft step", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("classic (PGS)", &mode, 1);
  v.mode = mode == 1 ? SolverMode::Classic : SolverMode::SoftStep;
  if (v.mode == SolverMode::SoftStep) {
    IntSlider("sub-steps", "sub_steps", v.subSteps);
    ImGui::SliderFloat("contact Hz", &v.contactHertz, 1.0f, 240.0f, "%.1f");
    ImGui::SliderFloat("damping ratio", &v.contactDampingRatio, 0.0f, 20.0f, "%.2f");
    ImGui::SliderFloat("static scale", &v.staticContactScale, 1.0f, 10.0f, "%.1f");
    ImGui::SliderFloat("push-out m/s", &v.contactPushMaxSpeed, 0.0f, 10.0f, "%.2f");
    ImGui::Checkbox("relax", &v.enableRelax);
    ImGui::SameLine();
    ImGui::Checkbox("warm start", &v.enableWarmStarting);
  } else {
    IntSlider("iterations", "classic_iterations", v.classicIterations);
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
  ImGui::PopItemWidth();
  ImGui::EndDisabled();
}

// The divergence check (ReplayCheck): red once this build's state left the recorded one.
void ReplayCheckSection(const SceneView& view) {
  const bool diverged = view.Check().divergedAt != 0;
  if (diverged) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
  for (const std::string& line : ReplayCheckLines(view.Check(), view.Player()->CurrentStep()))
    ImGui::TextUnformatted(line.c_str());
  if (diverged) ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "A recording made here names each step's World::StateHash on a body;\n"
        "playing it compares this build's hash after the same step.");
  }
}

// Recording restarts the scene with its world recording; a replay file plays in place of the scene,
// scrubbed with the slider (going back restores the player's nearest keyframe, a world snapshot).
void ReplayPanel(SceneView& view) {
  if (!Section("Record and replay", false)) return;
  static char path[256] = "minkowski.mkreplay";
  static std::string message;
  PushLabelRoom("file");
  ImGui::InputText("file", path, sizeof path);
  if (view.IsReplaying()) {
    const ReplayPlayer& player = *view.Player();
    const int last = static_cast<int>(std::min<std::uint64_t>(player.StepCount(), INT32_MAX));
    int step = static_cast<int>(player.CurrentStep());
    if (ImGui::SliderInt("step", &step, 0, last)) view.ScrubTo(static_cast<std::uint64_t>(step));
    if (ImGui::Button("|<")) view.ScrubTo(0);
    ImGui::SameLine();
    if (ImGui::Button("< step")) view.ScrubTo(step > 0 ? static_cast<std::uint64_t>(step - 1) : 0);
    ImGui::SameLine();
    if (ImGui::Button("step >")) view.StepOnce();
    ImGui::SameLine();
    if (ImGui::Button(">|")) view.ScrubTo(static_cast<std::uint64_t>(last));
    ReplayCheckSection(view);
    ImGui::Text("keyframes %d, every %llu steps, %.1f MB", player.KeyframeCount(),
                static_cast<unsigned long long>(player.KeyframeInterval()),
                static_cast<double>(player.KeyframeBytes()) / (1024.0 * 1024.0));
    if (ImGui::Button("Leave the replay")) {
      view.LeaveReplay();
      message.clear();
    }
  } else if (view.IsRecording()) {
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "recording, step %d", view.StepCount());
    if (ImGui::Button("Stop and save")) view.StopRecordingAndSave(path, message);
    ImGui::SameLine();
    if (ImGui::Button("Stop and replay")) {
      Replay replay;
      if (Replay::Load(view.StopRecording(), replay) == ReplayError::None) view.PlayReplay(std::move(replay));
    }
  } else {
    if (ImGui::Button("Record")) {
      view.StartRecording();
      message.clear();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("restarts the scene and records every step, grab and bomb");
    ImGui::SameLine();
    if (ImGui::Button("Load and replay")) view.PlayReplayFile(path, message);
  }
  if (!message.empty()) ImGui::TextWrapped("%s", message.c_str());
  ImGui::PopItemWidth();
}

ImVec4 ToImGui(Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f); }

// The legend of the broadphase view, with what it shows now.
void SweepLegend(const SceneView& view) {
  const SweepView& v = view.Sweep();
  const char axis = v.axis == 0 ? 'x' : 'y';
  ImGui::Indent();
  ImGui::TextWrapped(
      "Sweep and prune: boxes sorted by their lower end on the %c axis; a line sweeps along "
      "it keeping the active set (the boxes it is inside); a box that enters is tested "
      "against the active set only. The world is cut into %d band(s) across the axis, each "
      "swept on its own.",
      axis, v.bandCount);
  auto line = [](Color color, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ToImGui(color));
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
  };
  char text[96];
  line(sweep_colors::kSweepEnter, "green tick: a box enters (lower end)");
  line(sweep_colors::kSweepLeave, "red tick: a box leaves (upper end)");
  std::snprintf(text, sizeof text, "sweep line (at the mouse): %.2f m", static_cast<double>(v.position));
  line(sweep_colors::kSweepLine, text);
  std::snprintf(text, sizeof text, "orange: active set, %d box(es)", v.active);
  line(sweep_colors::kSweepActive, text);
  line(sweep_colors::kSweepBox, "grey: other fat boxes in view");
  std::snprintf(text, sizeof text, "white: %d pair(s) found with it", v.pairsFound);
  line(sweep_colors::kSweepPair, text);
  if (v.shown < v.inView) {
    ImGui::TextWrapped("showing the %d of the %d boxes in view nearest the sweep line (zoom in to see all)",
                       v.shown, v.inView);
  } else {
    ImGui::Text("%d boxes in view", v.inView);
  }
  ImGui::Unindent();
}

void DrawPanel(const SceneView& view, SceneSettings& s) {
  if (!Section("Draw", false)) return;
  DrawToggles& t = s.draw;
  ImGui::Checkbox("shapes", &t.shapes);
  ImGui::Checkbox("AABBs", &t.aabbs);
  ImGui::Checkbox("broadphase: sweep and prune", &t.broadphase);
  ImGui::Checkbox("contact points", &t.contactPoints);
  ImGui::Checkbox("contact normals", &t.contactNormals);
  ImGui::Checkbox("contact impulses", &t.contactImpulses);
  ImGui::Checkbox("joints", &t.joints);
  ImGui::Checkbox("centres of mass", &t.centersOfMass);
  ImGui::Checkbox("islands (sleeping: grey)", &t.islands);
  ImGui::Checkbox("continuous: path, TOI pose", &t.continuous);
  // The legend last: above the other toggles it pushed them down as it opened, so a click meant for
  // "contact points" landed on its text.
  if (t.broadphase && view.Settings().draw.broadphase) SweepLegend(view);
}

// What the world holds on the heap (World::GetMemoryStats), its parts in the tooltip.
void MemorySection(const World& world) {
  const MemoryStats m = world.GetMemoryStats();
  ImGui::TextUnformatted(MemoryLine(m).c_str());
  if (ImGui::IsItemHovered()) {
    std::string tip = "World::GetMemoryStats: array capacities, kept for reuse\n";
    for (const std::string& line : MemoryPartLines(m)) tip += line + "\n";
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

// How busy each of the step's workers was in the last step (worker_load.h): the table of busy ms by
// stage, then a bar per worker of its busy share of the step, so an idle worker shows at a glance.
void WorkersSection(const WorkerLoad& load) {
  if (load.workers == 0) return;  // before the first step
  ImGui::BeginGroup();
  ImGui::TextUnformatted("busy ms per worker, last step");
  for (const std::string& line : WorkerLoadLines(load)) ImGui::TextUnformatted(line.c_str());
  if (load.workers > 1) ImGui::Text("sub-steps on %s", load.subStepWorkers > 1 ? "the workers" : "w0 alone");
  std::array<float, kMaxSandboxWorkers> share{};
  for (int w = 0; w < load.workers; ++w)
    share[static_cast<size_t>(w)] = load.stepMs > 0.0f ? load.BusyMs(w) / load.stepMs : 0.0f;
  const ImVec2 size(ImGui::GetContentRegionAvail().x, kPlotHeight);
  // No text over the bars: white over ImGui's yellow bars does not read.
  ImGui::PlotHistogram("##workers", share.data(), load.workers, 0, nullptr, 0.0f, 1.0f, size);
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "w0 is the thread that calls Step: busy all the step but its waits for\n"
        "the others. w1.. are the pool's threads: busy while running the step's\n"
        "ranges, timed by the sandbox's task system. The solver's ranges include\n"
        "the waits between its stages. 'other': continuous, islands, events.\n"
        "The bars: each worker's busy share of the step, w0 first.");
  }
}

void ProfilePanel(SceneView& view) {
  if (!Section("Profile", true)) return;
  DrawMetricsTable(view.Profile());
  WorkersSection(view.Workers());
  const ProfileHistory& p = view.Profile();
  const World& world = view.GetWorld();
  const BroadPhaseStats bp = world.GetBroadPhase().Stats();
  for (const std::string& line :
       CountLines(world.GetCounters(), view.StepCount() > 0, world.GetSolverSettings().enableSleep)) {
    ImGui::TextUnformatted(line.c_str());
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "The step builds islands only for the sleep check: when a body has rested\n"
        "for 'time to sleep'. Until then no island is built, whatever moves.");
  }
  MemorySection(world);
  ImGui::Text("broadphase pairs %d", bp.pairCount);
  ImGui::Text("narrowphase queries/step %.0f", static_cast<double>(p.narrowphaseQueries.Latest()));
  ImGui::Text("GJK iterations/query %.2f", static_cast<double>(p.gjkIterations.Average()));

  const Readouts& r = view.GetReadouts();
  ImGui::Separator();
  ImGui::TextUnformatted(PenetrationLine(r.maxPenetration).c_str());
  ImGui::TextUnformatted(EnergyLine(r.kineticEnergy).c_str());
  if (r.referenceTime >= 0.0f) {
    ImGui::TextUnformatted(DriftLine(r.referenceTime, r.drift).c_str());
  } else {
    ImGui::Text("drift: reference at %.0f s", static_cast<double>(SceneView::kDriftReferenceTime));
  }
  if (ImGui::Button("Reset drift reference")) view.ResetDriftReference();
}

// Frames per second and how simulated time keeps up with real time: below real time (frames slower
// than the steps) the factor turns orange and the dropped steps are counted.
void StatusLines(const SceneView& view) {
  ImGui::TextUnformatted(ShownName(view));
  if (view.IsReplaying()) {
    ImGui::TextUnformatted(ReplayStepLine(view.Player()->CurrentStep(), view.Player()->StepCount()).c_str());
  } else {
    ImGui::TextUnformatted(StepLine(view.StepCount(), view.IsRecording()).c_str());
  }
  const RealTimeMeter& m = view.RealTime();
  const bool behind = !view.paused && m.factor < 0.95f;
  const ImVec4 color = behind ? ImVec4(1.0f, 0.6f, 0.2f, 1.0f) : ImGui::GetStyle().Colors[ImGuiCol_Text];
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextUnformatted(FrameRateLine(ImGui::GetIO().Framerate, m.factor, view.paused).c_str());
  ImGui::TextUnformatted(DroppedLine(m.droppedSteps).c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "real time: simulated seconds per real second (1 = real time)\n"
        "dropped: steps given up since loading because frames fell behind");
  }
}

// The samples of `category` among `matches`, as selectables under the category's name. Returns the
// picked name or nullptr.
const char* CategoryItems(const char* category, const std::vector<int>& matches, const char* current) {
  ImGui::TextDisabled("%s", category);
  const char* picked = nullptr;
  for (int index : matches) {
    const Sample& sample = Samples()[static_cast<size_t>(index)];
    if (std::string_view(sample.category) != category) continue;
    const bool selected = std::string_view(sample.name) == current;
    if (ImGui::Selectable(sample.name, selected)) picked = sample.name;
    if (selected) ImGui::SetItemDefaultFocus();  // the list opens scrolled to it
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sample.description.c_str());
  }
  return picked;
}

}  // namespace

const char* DrawScenePicker(const char* current) {
  // One query for the whole run: it stays while scenes change, as a search box in a browser does.
  static char query[64] = "";
  ImGui::InputTextWithHint("search", "name or description", query, sizeof query);
  const std::vector<int> matches = FilterSamples(query);
  if (matches.size() != Samples().size())
    ImGui::Text("%d of %d match", static_cast<int>(matches.size()), static_cast<int>(Samples().size()));
  // The list opens over the scene and the panel: opaque, or the text beneath reads through it.
  ImVec4 listColor = ImGui::GetStyle().Colors[ImGuiCol_PopupBg];
  listColor.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, listColor);
  const bool open = ImGui::BeginCombo("scene", current, ImGuiComboFlags_HeightLarge);
  ImGui::PopStyleColor();
  for (const std::string& line : PlaceLines(current, kPanelColumns)) ImGui::TextUnformatted(line.c_str());
  if (!open) return nullptr;
  const char* picked = nullptr;
  if (matches.empty()) ImGui::TextDisabled("nothing matches '%s'", query);
  for (const char* category : ShownCategories(matches)) {
    if (const char* name = CategoryItems(category, matches, current)) picked = name;
  }
  ImGui::EndCombo();
  return picked;
}

void DrawInspector(const SceneView& view) {
  if (!Section("Inspector", true)) return;
  if (view.Inspected().IsNull()) {
    ImGui::TextWrapped(
        view.IsReplaying()
            ? "Click a body to inspect it: its state, touching contacts and joints at the step shown."
            : "Paused: click a body to inspect it (its state, touching contacts and joints); it "
              "stays inspected when the run goes on.");
    return;
  }
  constexpr size_t kListed = 8;  // contacts and joints each: a ground can touch hundreds
  for (const std::string& line : InspectorLines(InspectBody(view.GetWorld(), view.Inspected()), kListed))
    ImGui::TextUnformatted(line.c_str());
}

void DrawMetricsTable(const ProfileHistory& profile) {
  for (const std::string& line : MetricsLines(profile)) ImGui::TextUnformatted(line.c_str());
  for (const StageHistory& stage : Stages(profile)) StagePlot(stage);
}

const char* DrawScenePanels(SceneView& view) {
  BeginSidePanel();
  StatusLines(view);
  SceneSettings s = view.Settings();
  const char* picked = ScenesPanel(view, s);
  SolverPanel(view, s);
  DrawPanel(view, s);
  ReplayPanel(view);
  // In a replay, and in a live run while paused (a click then inspects instead of grabbing) or once
  // a body was inspected (its figures go on changing as the run goes on).
  if (view.IsReplaying() || view.paused || !view.Inspected().IsNull()) DrawInspector(view);
  ProfilePanel(view);
  HelpSection();
  EndSidePanel();
  if (FormatSettings(s) != FormatSettings(view.Settings())) view.SetSettings(s);
  return picked;
}

}  // namespace mk::sandbox
