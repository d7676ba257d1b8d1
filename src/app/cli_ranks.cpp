// The viewer's --decompose (cli.h): its options, and what a run over ranks refuses before MPI
// starts (one line and exit 2 on every rank: each parses the same command line).
#include <CLI/CLI.hpp>
#include <cstdlib>

#include "cli.h"
#include "cli/run_options.h"
#include "orrery/device.h"
#include "orrery/input.h"

namespace orrery::app {

void add_rank_options(CLI::App& cli, Options& o, RankTexts& t) {
  cli.add_flag("--decompose", o.decompose,
               "under mpirun: one run over the ranks (cuda-bh, a GPU a rank, or cpu-bh), each "
               "holding the bodies of a range of Morton keys; rank 0 opens the window and draws a "
               "sample of every rank's bodies; --n defaults to 1048576 (mpirun -np 4 orrery "
               "--decompose --solver cuda-bh --preset plummer --n 100000000)");
  cli.add_option("--rebalance-every", t.rebalance_every,
                 "with --decompose: steps between decompositions by the bodies' measured work, 0 "
                 "to 10^6 (0: the first only; default 10)")
      ->type_name("INT");
  cli.add_option("--draw-max", t.draw_max,
                 "with --decompose: the most bodies rank 0 draws, 1 to 134217728 (default "
                 "1048576): every k-th body by ID, k the least that keeps under it")
      ->type_name("INT");
}

void check_decomposed(const RankTexts& t, bool solver_typed, Options& o) {
  if (!o.decompose) {
    if (t.rebalance_every || t.draw_max)
      throw InputError(std::string(t.rebalance_every ? "--rebalance-every" : "--draw-max") +
                       ": only with --decompose");
    return;
  }
#ifndef ORRERY_VIEWER_RANKS
  throw InputError("--decompose: this build has no MPI (Debian: libopenmpi-dev, then build again)");
#endif
  if (t.rebalance_every)
    o.rebalance_every =
        static_cast<int>(parse_integer(*t.rebalance_every, "--rebalance-every", 0, 1000000));
  if (t.draw_max) o.draw_max = parse_integer(*t.draw_max, "--draw-max", 1, k_max_bodies);
  if (!solver_typed) o.solver = device_present() ? "cuda-bh" : "cpu-bh";
  if (o.n == 0) {  // not sized to this machine: the run is the ranks'
    o.n = k_ranks_default_n;
    o.note =
        "orrery: --decompose: " + std::to_string(o.n) + " bodies over the ranks (--n changes it)";
  }
  if (o.solver != "cuda-bh" && o.solver != "cpu-bh")
    throw InputError("--decompose: solver " + o.solver +
                     " does not run over ranks (cuda-bh, a GPU a rank, or cpu-bh)");
  // One GPU a rank: rank 0's own run only holds the sample it draws (it never steps), on its
  // rank's GPU, and opens no NCCL over the others'.
  if (o.gpus > 1)
    throw InputError("--gpus " + std::to_string(o.gpus) +
                     ": not with --decompose (a rank takes one GPU; mpirun -np sets how many)");
  o.gpus = 1;
  if (o.loaded || !o.series.empty())
    throw InputError("--decompose: a preset only (--load and --scene are not read in parts yet)");
  if (!o.export_csv.empty())
    throw InputError("--decompose: --export-csv is not written over ranks (--save FILE.csv is)");
  orrery::cli::check_over_ranks(o.params, "mpirun -np 4 orrery --decompose --solver cpu-bh ...");
}

}  // namespace orrery::app
