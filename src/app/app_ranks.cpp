// The viewer of a run over MPI ranks (rank_view.h), on rank 0: each frame's steps are taken by
// every rank, and the sample they send is shown in place of a step (the same buffers, so colour,
// picking, trails, recording and screenshots work on it as on a run here).
#include <chrono>

#include "app.h"
#include "rank_view.h"

namespace orrery::app {

#ifdef ORRERY_VIEWER_RANKS
void App::start_ranks() {
  m_ranks->frame(0, m_run->params());  // the first sample
  RunState run;
  run.params = m_run->params();
  run.integrator = parse_integrator(m_opts.integrator);
  run.time = m_ranks->time();
  m_run->load(m_ranks->sample(), &run);
  say("orrery: over " + m_ranks->describe() + "; Space pauses, . steps");
}

// Space and . pause and step the ranks as they would a run here; the run here never steps.
void App::rank_frame() {
  const bool stepping = !m_settings.paused || m_input.step_once;
  m_input.step_once = false;
  const auto t0 = std::chrono::steady_clock::now();
  m_ranks->frame(stepping ? m_settings.steps_per_frame : 0, m_run->params());
  m_ranks_ms =
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  m_ranks_steps = m_ranks->steps();
  m_ranks_interactions = stepping ? m_ranks->interactions() : 0.0;
  if (stepping) m_run->show(m_ranks->sample(), m_ranks->time());
}

bool App::rank_action(const ui::Action& a) {
  switch (a.kind) {
    case ui::ActionKind::next_solver:
    case ui::ActionKind::prev_solver:
    case ui::ActionKind::set_solver:
    case ui::ActionKind::next_block:
    case ui::ActionKind::prev_block:
    case ui::ActionKind::set_block:
    case ui::ActionKind::set_gpus:
    case ui::ActionKind::reset:
    case ui::ActionKind::set_preset:
    case ui::ActionKind::set_integrator:
    case ui::ActionKind::next_integrator:
    case ui::ActionKind::apply_n:
    case ui::ActionKind::sweep_blocks:
    case ui::ActionKind::quick_save:
    case ui::ActionKind::quick_load:
    case ui::ActionKind::reverse_time:
    case ui::ActionKind::load_scene:
    case ui::ActionKind::save_scene:
    case ui::ActionKind::reload_types:
      say("orrery: over ranks the run is the one launched (solver, preset, N, integrator): "
          "relaunch mpirun to change it");
      return true;
    default:
      return false;
  }
}
#else  // a build without MPI: --decompose is refused on the command line, m_ranks never set
void App::start_ranks() {}
void App::rank_frame() {}
bool App::rank_action(const ui::Action&) { return false; }
#endif

}  // namespace orrery::app
