// SPDX-License-Identifier: MIT
#include "app.h"

#include "camera.h"
#include "layout_check.h"
#include "panel_text.h"
#include "panel_ui.h"
#include "sdl_draw.h"
#include "view_host.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>
// Declarations only: Debian's libstb already contains the compiled PNG writer.
#include <stb_image_write.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace mk::sandbox {
namespace {

constexpr float kWheelZoomStep = 1.15f;  // zoom factor per wheel notch
constexpr SDL_Color kBackground{28, 30, 36, 255};

bool IsSet(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0';
}

bool HasDisplay() { return IsSet("DISPLAY") || IsSet("WAYLAND_DISPLAY"); }

// The no-display message: what failed, then the two ways to run anyway.
void PrintNoDisplay(const char* program, const char* detail) {
  if (HasDisplay()) {
    const char* display = IsSet("DISPLAY") ? std::getenv("DISPLAY") : std::getenv("WAYLAND_DISPLAY");
    std::fprintf(stderr, "%s: cannot open a window on display '%s' (%s).\n", program, display, detail);
  } else {
    std::fprintf(stderr,
                 "%s: no display found (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open.\n",
                 program);
  }
  std::fprintf(stderr,
               "Run it headless instead:  %s --headless --frames N --screenshot out.png\n"
               "or on a virtual display:  xvfb-run -a -s '-screen 0 %dx%dx24' %s\n"
               "(or choose an SDL video driver yourself with SDL_VIDEODRIVER)\n",
               program, kWindowWidth, kWindowHeight, program);
}

#if defined(__EMSCRIPTEN__)
// Starts SDL video: in a browser the page's canvas is the display, always there.
int StartVideo(const Options&, const char* program) {
  if (SDL_Init(SDL_INIT_VIDEO) == 0) return kExitOk;
  std::fprintf(stderr, "%s: cannot start SDL video in this browser: %s\n", program, SDL_GetError());
  return kExitError;
}
#else
void UseOffscreenVideoDriver() {
  // SDL's offscreen driver renders into memory: it needs no X server, Wayland compositor or GPU.
  SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
}

// SDL drivers that render into memory only: a window there is invisible.
bool IsDisplaylessDriver(const char* name) {
  return name != nullptr && (std::strcmp(name, "offscreen") == 0 || std::strcmp(name, "dummy") == 0);
}

// Starts SDL video. Returns kExitOk or the exit code to stop with.
//  - Headless without a display goes straight to the offscreen driver; headless with a display that
//    fails retries offscreen.
//  - Interactive never settles for an invisible window: SDL 2.26 silently falls back to its offscreen
//    driver when X11 and Wayland fail, which would leave the user with a program that runs and shows
//    nothing. Unless the user picked a driver with SDL_VIDEODRIVER, that is reported as "no display".
int StartVideo(const Options& options, const char* program) {
  bool userChoseDriver = IsSet("SDL_VIDEODRIVER");
  bool offscreen = false;
  if (options.headless && !HasDisplay() && !userChoseDriver) {
    UseOffscreenVideoDriver();
    offscreen = true;
  }
#if defined(__unix__) && !defined(__APPLE__)
  // On Linux and the BSDs a window needs X11 or Wayland, which announce themselves in DISPLAY and
  // WAYLAND_DISPLAY. Deciding from those alone keeps the answer the same on every machine (and spares
  // the user libwayland's XDG_RUNTIME_DIR error). A console user can still pick SDL_VIDEODRIVER=KMSDRM.
  if (!options.headless && !HasDisplay() && !userChoseDriver) {
    PrintNoDisplay(program, "");
    return kExitNoDisplay;
  }
#endif
  if (SDL_Init(SDL_INIT_VIDEO) == 0) {
    if (options.headless || userChoseDriver || !IsDisplaylessDriver(SDL_GetCurrentVideoDriver()))
      return kExitOk;
    SDL_Quit();
    PrintNoDisplay(program, "X11 and Wayland failed; SDL fell back to its invisible offscreen driver");
    return kExitNoDisplay;
  }
  if (!options.headless) {
    PrintNoDisplay(program, SDL_GetError());
    return kExitNoDisplay;
  }
  if (!offscreen) {
    std::fprintf(stderr, "%s: SDL video failed (%s); retrying with the offscreen driver.\n", program,
                 SDL_GetError());
    UseOffscreenVideoDriver();
    if (SDL_Init(SDL_INIT_VIDEO) == 0) return kExitOk;
  }
  std::fprintf(stderr, "%s: cannot start SDL video, even offscreen: %s\n", program, SDL_GetError());
  return kExitError;
}
#endif

bool WritePng(SDL_Renderer* renderer, const std::string& path, const char* program) {
  int w = 0, h = 0;
  if (SDL_GetRendererOutputSize(renderer, &w, &h) != 0 || w <= 0 || h <= 0) {
    std::fprintf(stderr, "%s: screenshot: no output size (%s)\n", program, SDL_GetError());
    return false;
  }
  // RGBA32 means the bytes R, G, B, A in memory on any byte order (ABGR8888 on x86).
  std::vector<unsigned char> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGBA32, rgba.data(), w * 4) != 0) {
    std::fprintf(stderr, "%s: screenshot: cannot read pixels (%s)\n", program, SDL_GetError());
    return false;
  }
  // Drop alpha: some window surfaces leave it undefined, and the screen is opaque anyway.
  std::vector<unsigned char> rgb(static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
  for (size_t i = 0, n = static_cast<size_t>(w) * static_cast<size_t>(h); i < n; ++i) {
    std::memcpy(&rgb[3 * i], &rgba[4 * i], 3);
  }
  if (stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3) == 0) {
    std::fprintf(stderr, "%s: screenshot: cannot write '%s'\n", program, path.c_str());
    return false;
  }
  return true;
}

// Everything a running sandbox owns. Members are released in reverse order by Shutdown().
class App {
 public:
  App(const Options& opts, const char* programName)
      : options(opts), program(programName), showUi(!opts.hidePanel), paused(opts.paused) {}
  ~App() { Shutdown(); }
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// How a frame ended: more to come, the run is over (window closed, last of --frames), or an error.
  enum class FrameEnd { kMore, kDone, kError };

  /// Opens the window and the scene: kExitOk or the exit code to stop with.
  int Open();
  /// One frame: input, the steps it owes, drawing (the desktop loop and the browser call it).
  FrameEnd Frame();
  /// After the last frame: the --print-* lines, replay and recording results; the exit code.
  int Finish();
  /// Open, every frame, Finish (the desktop's own loop).
  int Run();
#if defined(__EMSCRIPTEN__)
  /// What the web page reads (mk_web_status): JSON with the frame count, what is shown, its steps and
  /// state hash, the frame rate and the exit code once the run is over (-1 before).
  std::string StatusJson();
  std::vector<double> workSeconds;  // time spent inside Frame(), per frame
  int exitStatus = -1;
#endif

 private:
  void Shutdown();
  bool HandleEvents();
  void HandleKey(SDL_Keycode key);
  void LoadAdjacent(int step);
  void HandleMouse(const SDL_Event& event);
  void Advance(float realSeconds);
  void BuildUi();
  void DrawPausedBanner();
  bool RenderFrame(bool takeScreenshot);
  void FitCamera();
  void PrintFps();
  void PrintHash();

  Options options;
  const char* program;
  SDL_Window* window = nullptr;
  SDL_Renderer* renderer = nullptr;
  bool sdlStarted = false;
  bool imguiStarted = false;

  Camera camera;
  SdlDraw draw;
  ViewHost host;
  bool showUi = true;
  bool paused = false;
  bool singleStep = false;
  bool reportedFlush = false;
  Vec2 mouseScreen{-1.0f, -1.0f};
  int outputWidth = 0, outputHeight = 0;  // renderer size at the last frame: a change refits the view
  std::vector<double> frameSeconds;       // --print-fps
  int frame = 0;                          // frames drawn
  Uint64 lastCounter = 0;                 // SDL_GetPerformanceCounter() at the last frame
  bool screenshotWritten = false;
};

int App::Open() {
  // The scene first: a typo in --scene or --settings is reported before any window opens.
  std::string error;
  if (!host.Load(options.scene.empty() ? kDefaultScene : options.scene, options.settings, error)) {
    std::fprintf(stderr, "%s: %s\n", program, error.c_str());
    return kExitError;
  }
  if (!options.recordPath.empty() || !options.replayPath.empty()) {
    SceneView* scene = host.Scene();
    if (scene == nullptr) {
      std::fprintf(stderr, "%s: --record and --replay need a world scene, not a lab\n", program);
      return kExitError;
    }
    if (!options.replayPath.empty() && !scene->PlayReplayFile(options.replayPath, error)) {
      std::fprintf(stderr, "%s: %s\n", program, error.c_str());
      return kExitError;
    }
    if (!options.recordPath.empty()) scene->StartRecording();
  }
  int status = StartVideo(options, program);
  if (status != kExitOk) return status;
  sdlStarted = true;

  Uint32 flags = options.headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE;
  window = SDL_CreateWindow("Minkowski sandbox", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                            options.windowWidth, options.windowHeight, flags);
  if (window == nullptr) {
    if (!options.headless) {
      PrintNoDisplay(program, SDL_GetError());
      return kExitNoDisplay;
    }
    std::fprintf(stderr, "%s: cannot create the window: %s\n", program, SDL_GetError());
    return kExitError;
  }
  // Headless uses the software renderer: the same pixels on every machine, with or without a GPU. A
  // browser has one canvas and draws it with WebGL, headless too.
#if defined(__EMSCRIPTEN__)
  const bool accelerated = true;
#else
  const bool accelerated = !options.headless;
#endif
  if (accelerated) {
    renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
  }
  if (renderer == nullptr) renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
  if (renderer == nullptr) {
    std::fprintf(stderr, "%s: cannot create a renderer: %s\n", program, SDL_GetError());
    return kExitError;
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imguiStarted = true;
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left in the working directory
  ImGui::StyleColorsDark();
  SetExpandAllSections(options.expandPanels);
  ImGui_ImplSDL2_InitForSDLRenderer(window);
  ImGui_ImplSDLRenderer_Init(renderer);
  FitCamera();
  lastCounter = SDL_GetPerformanceCounter();
  return kExitOk;
}

void App::Shutdown() {
  if (imguiStarted) {
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    imguiStarted = false;
  }
  if (renderer != nullptr) SDL_DestroyRenderer(renderer);
  if (window != nullptr) SDL_DestroyWindow(window);
  renderer = nullptr;
  window = nullptr;
  if (sdlStarted) SDL_Quit();
  sdlStarted = false;
}

void App::FitCamera() {
  int w = options.windowWidth, h = options.windowHeight;
  if (renderer != nullptr) SDL_GetRendererOutputSize(renderer, &w, &h);
  camera.width = static_cast<float>(w);
  camera.height = static_cast<float>(h);
  camera = FitBoundsBeside(camera, host.Bounds(), showUi ? kPanelPixels : 0.0f);
}

// [ and ]: the previous or next sample in the browser's order, framed as the picker frames one.
void App::LoadAdjacent(int step) {
  std::string error;
  if (host.LoadAdjacent(step, error)) {
    FitCamera();
  } else {
    std::fprintf(stderr, "%s: %s\n", program, error.c_str());
  }
}

void App::HandleKey(SDL_Keycode key) {
  switch (key) {
    case SDLK_SPACE:
      paused = !paused;
      break;
    case SDLK_PERIOD:
    case SDLK_s:
      paused = true;
      singleStep = true;
      break;
    case SDLK_r:
      host.Restart();
      FitCamera();  // the start pose again: frame the scene as when it loaded
      break;
    case SDLK_f:
      FitCamera();
      break;
    case SDLK_h:
      showUi = !showUi;
      FitCamera();  // the view gains or loses the panel's width
      break;
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHTBRACKET:
      LoadAdjacent(key == SDLK_RIGHTBRACKET ? 1 : -1);
      break;
    default:
      break;
  }
}

void App::HandleMouse(const SDL_Event& event) {
  auto toWorld = [this](int x, int y) {
    return ScreenToWorld(camera, {static_cast<float>(x), static_cast<float>(y)});
  };
  const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
  switch (event.type) {
    case SDL_MOUSEBUTTONDOWN:
      if (event.button.button == SDL_BUTTON_LEFT)
        host.MouseDown(toWorld(event.button.x, event.button.y), shift);
      break;
    case SDL_MOUSEBUTTONUP:
      if (event.button.button == SDL_BUTTON_LEFT) host.MouseUp(toWorld(event.button.x, event.button.y));
      break;
    case SDL_MOUSEMOTION:
      mouseScreen = {static_cast<float>(event.motion.x), static_cast<float>(event.motion.y)};
      if ((event.motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) != 0) {
        camera = Pan(camera, {static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel)});
      }
      host.MouseMove(toWorld(event.motion.x, event.motion.y));
      break;
    case SDL_MOUSEWHEEL:
      if (event.wheel.preciseY != 0.0f) {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        if (!host.MouseWheel(toWorld(x, y), event.wheel.preciseY)) {
          float factor = std::pow(kWheelZoomStep, event.wheel.preciseY);
          camera = ZoomAt(camera, {static_cast<float>(x), static_cast<float>(y)}, factor);
        }
      }
      break;
    default:
      break;
  }
}

// Returns false when the user asked to quit.
bool App::HandleEvents() {
  bool running = true;
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == SDL_QUIT) running = false;
    if (options.headless) continue;  // headless frames must not depend on stray input
    ImGui_ImplSDL2_ProcessEvent(&event);
    if (event.type == SDL_KEYDOWN) {
#if !defined(__EMSCRIPTEN__)
      if (event.key.keysym.sym == SDLK_ESCAPE) running = false;  // a page has no window to close
#endif
      if (!ImGui::GetIO().WantCaptureKeyboard) HandleKey(event.key.keysym.sym);
      continue;
    }
    // A drag that started in the view keeps reaching it even over a panel (releases above all).
    const bool releaseOrDrag = event.type == SDL_MOUSEBUTTONUP || event.type == SDL_MOUSEMOTION;
    if (ImGui::GetIO().WantCaptureMouse && !releaseOrDrag) continue;
    HandleMouse(event);
  }
  return running;
}

void App::Advance(float realSeconds) {
  if (singleStep) {
    host.StepOnce();
    singleStep = false;
  } else if (!paused) {
    host.Advance(realSeconds);
  }
}

// "PAUSED" at the top of the view (right of the panel), over the scene but not on its centre.
void App::DrawPausedBanner() {
  if (!paused) return;
  const char* text = "PAUSED   space: run   S: one step";
  const ImVec2 size = ImGui::CalcTextSize(text);
  const float left = showUi ? kPanelPixels : 0.0f;
  const ImVec2 pos(left + 0.5f * (camera.width - left - size.x), 12.0f);
  ImDrawList* list = ImGui::GetForegroundDrawList();
  list->AddRectFilled(ImVec2(pos.x - 8.0f, pos.y - 4.0f),
                      ImVec2(pos.x + size.x + 8.0f, pos.y + size.y + 4.0f), IM_COL32(200, 60, 40, 230), 4.0f);
  list->AddText(pos, IM_COL32(255, 255, 255, 255), text);
}

void App::BuildUi() {
  const char* picked = host.BuildPanels(paused);  // last: the focused window
  if (!ImGui::GetIO().WantCaptureMouse && mouseScreen.x >= 0.0f) {
    std::string tip = host.HoverText(ScreenToWorld(camera, mouseScreen));
    if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
  }
  if (host.Scene() != nullptr && host.Scene()->TakeRefitRequest()) FitCamera();  // a replay started or ended
  if (host.Scene() != nullptr && host.Scene()->TakeResumeRequest()) paused = false;  // the replay was left
  if (picked != nullptr) {
    std::string error;
    if (host.Load(picked, {}, error)) {
      FitCamera();
    } else {
      std::fprintf(stderr, "%s: %s\n", program, error.c_str());
    }
  }
}

bool App::RenderFrame(bool takeScreenshot) {
  int w = 0, h = 0;
  SDL_GetRendererOutputSize(renderer, &w, &h);
  camera.width = static_cast<float>(w);
  camera.height = static_cast<float>(h);
  if ((w != outputWidth || h != outputHeight) && outputWidth > 0) FitCamera();  // the window was resized
  if (host.Scene() != nullptr) camera.center = camera.center + host.Scene()->TakeFollowShift();
  outputWidth = w;
  outputHeight = h;

  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  draw.BeginFrame(camera, ImGui::GetBackgroundDrawList());
  host.Draw(draw, VisibleBounds(camera), 1.0f / camera.pixelsPerMetre);
  if (showUi) BuildUi();  // after the scene, so its statistics are this frame's
  DrawPausedBanner();
  ImGui::Render();
  if (takeScreenshot && options.checkLayout) {
    std::string failures = CheckLayout();
    if (!failures.empty()) {
      std::fprintf(stderr, "%s: layout check failed at %dx%d:\n%s", program, w, h, failures.c_str());
      return false;
    }
    std::printf("layout check passed at %dx%d\n", w, h);
  }

  SDL_SetRenderDrawColor(renderer, kBackground.r, kBackground.g, kBackground.b, kBackground.a);
  SDL_RenderClear(renderer);
  if (!draw.Flush(renderer) && !reportedFlush) {
    std::fprintf(stderr, "%s: SDL_RenderGeometry failed: %s\n", program, SDL_GetError());
    reportedFlush = true;
  }
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  bool ok = true;
  // Read back before presenting: after SDL_RenderPresent the back buffer is undefined.
  if (takeScreenshot && !options.screenshotPath.empty())
    ok = WritePng(renderer, options.screenshotPath, program);
  SDL_RenderPresent(renderer);
  return ok;
}

void App::PrintFps() { std::printf("%s\n", FpsReport(frameSeconds, host.Name()).c_str()); }

void App::PrintHash() {
  const SceneView* scene = host.Scene();
  if (scene == nullptr) {
    std::printf("state hash: none (%s is a lab, not a world scene)\n", host.Name().c_str());
    return;
  }
  std::printf("state hash %016" PRIx64 " after %d steps (%s)\n", scene->GetWorld().StateHash(),
              scene->StepCount(), host.Name().c_str());
}

App::FrameEnd App::Frame() {
  if (!HandleEvents()) return FrameEnd::kDone;
  Uint64 now = SDL_GetPerformanceCounter();
  float dt = static_cast<float>(static_cast<double>(now - lastCounter) /
                                static_cast<double>(SDL_GetPerformanceFrequency()));
  lastCounter = now;
  if (options.headless) {
    if (!paused) host.StepOnce();  // one fixed step per frame: the same picture on every machine
  } else {
    Advance(dt);
  }
  host.Update();

  bool lastFrame = options.frames > 0 && frame + 1 == options.frames;
  bool shoot = lastFrame && (!options.screenshotPath.empty() || options.checkLayout);
  if (!RenderFrame(shoot)) return FrameEnd::kError;
  screenshotWritten = screenshotWritten || shoot;
  if (frame > 0) frameSeconds.push_back(static_cast<double>(dt));
  ++frame;
  return options.frames == 0 || frame < options.frames ? FrameEnd::kMore : FrameEnd::kDone;
}

int App::Run() {
  int status = Open();
  if (status != kExitOk) return status;
  FrameEnd end = FrameEnd::kMore;
  while (end == FrameEnd::kMore) end = Frame();
  return end == FrameEnd::kError ? kExitError : Finish();
}

int App::Finish() {
  if (options.printFps) PrintFps();
  if (options.printHash) PrintHash();
  if (const SceneView* scene = host.Scene(); scene != nullptr && scene->IsReplaying()) {
    const scenes::SceneInfo* replayed = scene->ReplayedScene();
    std::printf("%s: replayed %s, step %llu of %llu", program,
                replayed != nullptr ? replayed->name : "a recording that names no scene",
                static_cast<unsigned long long>(scene->Player()->CurrentStep()),
                static_cast<unsigned long long>(scene->Player()->StepCount()));
    for (const std::string& line : ReplayCheckLines(scene->Check(), scene->Player()->CurrentStep()))
      std::printf("; %s", Trimmed(line).c_str());
    std::printf("\n");
  }
  if (!options.recordPath.empty()) {
    // The scene that was recording, unless the user left it (another scene, a lab).
    std::string message = "the recording was left (another scene or lab was opened)";
    SceneView* scene = host.Scene();
    const bool saved = scene != nullptr && scene->StopRecordingAndSave(options.recordPath, message);
    std::fprintf(saved ? stdout : stderr, "%s: %s\n", program, message.c_str());
    if (!saved) return kExitError;
  }
  // A window closed before the last frame still gets its screenshot request honoured.
  if (!options.screenshotPath.empty() && !screenshotWritten) {
    if (!RenderFrame(true)) return kExitError;
  }
  return kExitOk;
}

}  // namespace

#if defined(__EMSCRIPTEN__)
namespace {

// A string as a JSON string literal (scene and lab names are plain words; quotes, backslashes and
// control characters are escaped all the same).
std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The running sandbox in a browser: the page's main loop calls it after main() has returned, so it
// lives on the heap, and stays after the last frame so that the page can still read its status.
App* webApp = nullptr;

void WebFrame() {
  const double start = emscripten_get_now();
  const App::FrameEnd end = webApp->Frame();
  webApp->workSeconds.push_back(1e-3 * (emscripten_get_now() - start));
  if (end == App::FrameEnd::kMore) return;
  emscripten_cancel_main_loop();
  webApp->exitStatus = end == App::FrameEnd::kError ? kExitError : webApp->Finish();
  std::printf("sandbox: finished with exit code %d\n", webApp->exitStatus);
}

}  // namespace

std::string App::StatusJson() {
  char number[64];
  std::string json = "{\"frame\":" + std::to_string(frame) + ",\"shown\":" + JsonString(host.Name());
  const SceneView* scene = host.Scene();
  if (scene != nullptr) {
    std::snprintf(number, sizeof number, "\"%016" PRIx64 "\"", scene->GetWorld().StateHash());
    json += ",\"steps\":" + std::to_string(scene->StepCount()) + ",\"hash\":" + number;
  }
  const FrameTimes frames = MeasureFrameTimes(frameSeconds), work = MeasureFrameTimes(workSeconds);
  if (frames.ok && work.ok) {
    std::snprintf(number, sizeof number, ",\"fps\":%.2f,\"run_fps\":%.2f", 1.0 / frames.recentMedian,
                  1.0 / frames.runMedian);
    json += number;
    std::snprintf(number, sizeof number, ",\"frame_ms\":%.3f,\"work_ms\":%.3f", 1e3 * frames.recentMedian,
                  1e3 * work.recentMedian);
    json += number;
  }
  return json + ",\"exit\":" + std::to_string(exitStatus) + "}";
}
#endif

int RunSandbox(const Options& options, const char* program) {
  if (options.listScenes) {
    std::fputs(ListScenesText(LabNames()).c_str(), stdout);
    return kExitOk;
  }
#if defined(__EMSCRIPTEN__)
  // The browser runs the frames (one per animation frame, requestAnimationFrame): main() must return
  // to it, so the loop is handed over and never comes back here.
  webApp = new App(options, program);
  webApp->exitStatus = webApp->Open();
  if (webApp->exitStatus != kExitOk) return webApp->exitStatus;
  webApp->exitStatus = -1;
  emscripten_set_main_loop(WebFrame, 0, 1);
  return kExitOk;
#else
  App app(options, program);
  return app.Run();
#endif
}

#if defined(__EMSCRIPTEN__)
/// StatusJson() of the running sandbox, or "{}" before it opened (valid until the next call).
const char* WebStatus() {
  static std::string status;
  status = webApp != nullptr ? webApp->StatusJson() : "{}";
  return status.c_str();
}
#endif

}  // namespace mk::sandbox

#if defined(__EMSCRIPTEN__)
// For the page (web/index.html): Module.ccall("mk_web_status", "string").
extern "C" EMSCRIPTEN_KEEPALIVE const char* mk_web_status() { return mk::sandbox::WebStatus(); }
#endif
