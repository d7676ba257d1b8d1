"""orrery.Series: a snapshot series played back from Python (the engine's reader, orrery/playback.h)."""
import bisect
import math
import os

from . import _orrery


class Series:
    """A snapshot series: a run's outputs, Orrery's own or another code's (GADGET, AREPO, SWIFT,
    TIPSY), named by a glob ("run/snap_*.hdf5"), a folder, or a list of files, in natural order
    (snap_9 before snap_10); the files of a set (GADGET-2's snap_005.0, .1, ...; GADGET-4's
    snap_005.0.hdf5, .1.hdf5, ...) are one output.

    len(series) outputs; series.files their paths; series.times their times (every output read
    once, NaN for one that cannot be read); series[k] a Simulation of output k (as orrery.load,
    settings keywords passed on: series.get(k, solver="cpu-bh")), series[a:b] a list of them, and
    iteration; series.read(k) output k's arrays without a Simulation; series.at(t) the state at
    time t between two outputs (a cubic Hermite curve through each body's positions and
    velocities, bodies matched by ID); series.render(k, path, ...) and series.show(k, ...).

    Outputs are read on a thread of the engine, at most `memory` bytes of them held at once (1 GiB
    by default); types=, gadget_g= and units= are orrery.load's. Raises ValueError in one line for
    a glob that matches nothing, a folder with no snapshot, a file that is no snapshot, outputs in
    two formats, a name given twice; reading an output that is damaged, gone, or whose time is not
    after the output before it raises ValueError naming it (the others still read)."""

    def __init__(self, files, types=None, gadget_g=None, units=None, memory=1 << 30):
        if isinstance(files, (str, os.PathLike)):
            args = [os.fspath(files)]
        else:
            args = [os.fspath(f) for f in files]
        if isinstance(memory, bool) or not isinstance(memory, (int, float)):
            raise TypeError(f"memory={memory!r}: expected a number of bytes")
        self._engine = _orrery._Series(args, types, gadget_g, units, float(memory))
        self._load = {"types": types, "gadget_g": gadget_g, "units": units}
        self._times = {}

    def __len__(self):
        return len(self._engine)

    def __repr__(self):
        return f"<orrery.Series of {len(self)} outputs: {self.files[0]} ...>"

    def _index(self, k):
        if isinstance(k, bool) or not hasattr(k, "__index__"):
            raise TypeError(f"an output's index is an integer, not {type(k).__name__}")
        k = k.__index__()
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(f"output {k} of a series of {len(self)}")
        return k

    @property
    def files(self):
        return [self._engine.path(k) for k in range(len(self))]

    def read(self, k):
        """Output k as a dict: time, positions and velocities ((N, 3) float32), masses ((N,)),
        ids ((N,) uint64, or None where the file has none) and file. Where the file has IDs the
        bodies come in the order of their IDs, so a row is the same body in every output."""
        k = self._index(k)
        out = self._engine.read(k)
        self._times[k] = out["time"]
        return out

    def time(self, k):
        k = self._index(k)
        if k not in self._times:
            try:
                self.read(k)
            except ValueError:
                self._times[k] = math.nan
        return self._times[k]

    @property
    def times(self):
        import numpy as np
        return np.array([self.time(k) for k in range(len(self))])

    def get(self, k, **settings):
        """A Simulation of output k (orrery.load of its file, with these settings)."""
        from . import load
        return load(self._engine.path(self._index(k)), **self._load, **settings)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.get(i) for i in range(len(self))[k]]
        return self.get(k)

    def __iter__(self):
        for k in range(len(self)):
            yield self.get(k)

    def at(self, t):
        """The state at time t (between the first output's time and the last's): a dict of time,
        positions, velocities, masses and ids in the order of the output before t (its IDs'
        order, where it has IDs). Outputs that cannot be read are stepped over."""
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise ValueError(f"t={t!r}: expected a finite time")
        known = [(self.time(k), k) for k in range(len(self))]
        known = [(tk, k) for tk, k in known if not math.isnan(tk)]
        if not known or not known[0][0] <= t <= known[-1][0]:
            span = f"{known[0][0]:g} to {known[-1][0]:g}" if known else "no readable output"
            raise ValueError(f"t={t:g}: outside the series' times ({span})")
        i = bisect.bisect_right([tk for tk, _ in known], t) - 1
        if i == len(known) - 1:
            return self.read(known[i][1])
        (ta, a), (tb, b) = known[i], known[i + 1]
        if b != a + 1:
            raise ValueError(f"t={t:g}: between outputs {a} and {b}, with the outputs between "
                             "them unreadable")
        return self._engine.between(a, t)

    def render(self, k, path, **options):
        """Output k drawn into a PNG at `path` (Simulation.render's options)."""
        return self.get(k).render(path, **options)

    def show(self, k, **options):
        """Output k in the viewer's window (Simulation.show's options)."""
        return self.get(k).show(**options)
