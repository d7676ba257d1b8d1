import math, orrery
from two_body import kepler
for eta in (0.005, 0.01, 0.02, 0.05):
    def run(**kw):
        s = kepler(0.9, solver="cpu", integrator="yoshida4", precision="double", **kw)
        e0 = s.diagnostics()["energy"]; worst = 0.0
        for k in range(1, 101):
            s.integrate(2 * math.pi * k)
            worst = max(worst, abs(s.diagnostics()["energy"] - e0) / abs(e0))
        return s.steps, worst
    steps, a = run(dt="auto", dt_max=0.1, eta=eta)
    fdt = 100 * 2 * math.pi / steps
    _, f = run(dt=fdt)
    print(f"eta {eta}: adaptive {steps} steps ({steps/100:.0f} an orbit), max |dE/E| {a:.3e}; fixed dt {fdt:.4g}: {f:.3e}")
