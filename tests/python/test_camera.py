"""The camera from Python (issue 44): render(camera={...}) is the same picture as the rows typed
alone, a camera path given as keyframes reaches the viewer, and bad camera values raise ValueError
naming the keyword."""
import pytest

import orrery


def small():
    return orrery.Simulation(n=300, preset="plummer", solver="cpu")


def render_or_skip(sim, path, **options):
    try:
        return sim.render(path, width=160, height=100, **options)
    except RuntimeError as e:
        if "EGL" in str(e) or "context" in str(e):
            pytest.skip(f"no EGL context here: {e}")
        raise


def picture(sim, tmp, name, **options):
    path = (tmp / f"{name}.png").as_posix()
    render_or_skip(sim, path, **options)
    with open(path, "rb") as f:
        return f.read()


def test_the_view_rows_include_roll_centre_and_orbit():
    names = {r["name"] for r in orrery.parameters() if r["owner"] == "view"}
    assert {"camera_roll", "camera_x", "camera_y", "camera_z", "orbit"} <= names


def test_camera_dict_is_the_rows_typed_alone(tmp):
    sim = small()
    together = picture(sim, tmp, "together",
                       camera={"distance": 8, "elevation": 60, "roll": 30, "fov": 30,
                               "centre": (0.5, 0, 0)})
    alone = picture(sim, tmp, "alone", camera_distance=8, camera_elevation=60, camera_roll=30,
                    fov=30, camera_x=0.5, camera_y=0, camera_z=0)
    plain = picture(sim, tmp, "plain")
    assert together == alone
    assert together != plain


def test_a_camera_path_given_as_keyframes(tmp):
    """render() draws its third frame (2/60 s of a headless path): a path of one key is that key's
    view."""
    sim = small()
    keyed = picture(sim, tmp, "keyed", camera_path=[{"t": 0, "camera_distance": 12}])
    typed = picture(sim, tmp, "typed", camera_distance=12)
    assert keyed == typed
    as_dict = picture(sim, tmp, "dict",
                      camera={"path": {"easing": "linear",
                                       "keys": [{"t": 0, "fov": 20, "camera_distance": 30}]}})
    assert as_dict == picture(sim, tmp, "fov", fov=20, camera_distance=30)


def test_frame_words_reach_the_viewer(tmp):
    sim = small()
    assert picture(sim, tmp, "half", frame="mass:0.5") != picture(sim, tmp, "all", frame="all")


@pytest.mark.parametrize("options, match", [
    ({"camera": {"zoom": 2}}, "camera: unknown key 'zoom'"),
    ({"camera": {"centre": (1, 2)}}, "camera: centre must be three numbers"),
    ({"camera": "far"}, "camera: must be a dict"),
    ({"camera": {"distance": 5}, "camera_distance": 5}, "camera_distance is given twice"),
    ({"camera_path": [{"t": float("nan")}]}, "camera_path: Out of range float"),
    ({"camera_path": 7}, "camera_path: must be"),
])
def test_bad_camera_values_raise_before_the_viewer(tmp, options, match):
    with pytest.raises(ValueError, match=match):
        small().render((tmp / "x.png").as_posix(), **options)


@pytest.mark.parametrize("options, match", [
    ({"camera_path": []}, "keys: must be a non-empty array"),
    ({"camera_path": [{"t": 1}, {"t": 0.5}]}, r"keys\[1\].t: 0.5 comes before"),
    ({"camera": {"roll": 500}}, "--camera-roll"),
    ({"frame": "half"}, "--frame 'half'"),
    ({"follow": "body:1000"}, "--follow body:1000: there are 300 bodies"),
])
def test_bad_camera_values_the_viewer_refuses(tmp, options, match):
    sim = small()
    try:
        sim.render((tmp / "x.png").as_posix(), **options)
    except RuntimeError as e:
        if "EGL" in str(e) or "context" in str(e):
            pytest.skip(f"no EGL context here: {e}")
        raise
    except ValueError as e:
        assert __import__("re").search(match, str(e)), str(e)
    else:
        pytest.fail("accepted")


def test_render_draws_a_density_map(tmp):
    sim = small()
    density = picture(sim, tmp, "density", mode="density")
    assert density != picture(sim, tmp, "bodies")
    assert density != picture(sim, tmp, "viridis", mode="density", palette="viridis")
    with pytest.raises(ValueError, match="--mode"):
        render_or_skip(sim, (tmp / "x.png").as_posix(), mode="heat")
