#include "panel_file.h"

#include <imgui.h>

#include <cstdio>

#include "orrery/snapshot.h"
#include "panel_readouts.h"

namespace orrery::ui {

void file_section(Settings& s, const Readouts& r, std::vector<Action>& actions) {
  const FileReadout& f = r.file;
  ImGui::TextWrapped("%s (%s)", f.name.c_str(), f.format.c_str());
  if (!f.units.empty()) {  // a GADGET or HDF5 file (Orrery's own keep G = 1 and the run's time)
    ImGui::TextWrapped("%s", f.units.c_str());
    ImGui::Text("file time %.6g   redshift %.6g", f.time, f.redshift);
    help_marker(
        "The file's own Time and Redshift: in a cosmological run Time is the scale factor a = "
        "1/(1+z). The run's clock (Diagnostics) starts from it in Orrery's units (G = 1).");
  }
  if (f.box > 0) {
    ImGui::Text("periodic box, side %.6g", f.box);
    ImGui::SameLine();
    ImGui::Checkbox("outline", &s.file_box);
  }
  ImGui::TextUnformatted("particle types");
  const std::vector<std::string>& names = particle_type_names();
  for (int t = 0; t < 6; ++t) {
    bool on = s.types_edit & (1 << t);
    char label[64];
    if (f.counts[t] > 0)
      std::snprintf(label, sizeof label, "%d %s (%lld)", t,
                    names[static_cast<std::size_t>(t)].c_str(), f.counts[t]);
    else
      std::snprintf(label, sizeof label, "%d %s", t, names[static_cast<std::size_t>(t)].c_str());
    if (ImGui::Checkbox(label, &on))
      s.types_edit = on ? s.types_edit | 1 << t : s.types_edit & ~(1 << t);
    if (t % 2 == 0) ImGui::SameLine(160.0f);
  }
  int loaded = 0;
  for (int t = 0; t < 6; ++t)
    if (f.counts[t] > 0) loaded |= 1 << t;
  ImGui::BeginDisabled(!f.reloadable || s.types_edit == 0 || s.types_edit == loaded);
  if (ImGui::Button("Read these types"))
    actions.push_back({ActionKind::reload_types, s.types_edit});
  ImGui::EndDisabled();
  help_marker(f.reloadable
                  ? "Reads the file again with the ticked types only (as --types does); the run "
                    "starts again from the file."
                  : "A scene's file: open it with --load (or F9) to choose its types here.");
}

}  // namespace orrery::ui
