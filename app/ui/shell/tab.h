// The one pattern of the window's parts. A Panel draws itself into the current ImGui window
// from a TabContext (what every part may read and the App's actions); a Tab is a Panel with a
// title, shown in the view's tab bar. App holds its tabs in a list and draws them in a loop:
//
//   for (Tab* tab : tabs_)
//     if (ImGui::BeginTabItem(tab->title(), nullptr, tab->take_select() ? SetSelected : 0)) {
//       tab->draw(context);
//       ImGui::EndTabItem();
//     }
//
// A new tab = a class implementing Tab, one member of App, one entry in App's list. The
// controls column (ControlsPanel) is a Panel the same way; the menus, status bar and dialogs
// belong to the App itself (they act on everything).
#pragma once

namespace tilescope {

class App;
struct AppState;
struct DeviceInfo;
class Runner;
class TimingHistory;

// What a panel sees for one frame. The references outlive the frame (they are the App's).
struct TabContext {
  App& app;                  // actions: run, sweep, live, cancel, dialogs, status
  AppState& state;           // what the user chose (panels edit it)
  const DeviceInfo& device;  // the CUDA device (may be unavailable)
  const Runner& runner;      // progress, whether the GPU is used, the Live trace
  TimingHistory& history;    // every result so far
};

class Panel {
 public:
  virtual ~Panel() = default;
  // Draws into the current ImGui window (the tab's content region, or the controls column).
  virtual void draw(TabContext& ctx) = 0;
};

class Tab : public Panel {
 public:
  // The tab's label in the tab bar (also its ImGui id: keep it stable).
  virtual const char* title() const = 0;
  // Whether the tab bar shows it this frame: a tab with nothing to show or do on this machine
  // stays out of the bar (which a projector's width cannot spare).
  virtual bool in_tab_bar(const TabContext&) { return true; }
  // Selects this tab in the next frame (scripts: show-mapping, show-history).
  void request_select() { select_ = true; }
  // True once after request_select(): the frame that selects the tab.
  bool take_select() {
    const bool s = select_;
    select_ = false;
    return s;
  }

 private:
  bool select_ = false;
};

}  // namespace tilescope
