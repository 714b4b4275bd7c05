"""Where the topic maps put things: topics by similarity, a topic's papers by theirs.

* **The topic map**: the topics' centroids (``topic_model``) projected on their two leading
  principal axes, so similar topics lie close; each a circle whose area is its number of
  papers. Circles are then pushed apart until none overlaps (``SPREAD_STEPS`` rounds of
  pairwise pushes, numpy, deterministic), and the whole fitted into a ``MAP_WIDTH`` x
  ``MAP_HEIGHT`` box. Labels are given to the largest topics whose label box (estimated from
  its length) overlaps no label given before, the others have only their hover title.
* **A topic's papers**: the papers' points projected on the two leading principal axes of
  the topic's own papers (what tells them apart), at most ``MAX_DOTS`` of them: those
  closest to the topic's centre when it has more (the page says how many it shows).

Coordinates are rounded to whole units of the box: the SVG stays small and its bytes do
not depend on float noise.
"""

from __future__ import annotations

from dataclasses import dataclass

from .numeric import np

MAP_WIDTH = 800
MAP_HEIGHT = 520
MARGIN = 8
FILL = 0.28  # share of the box the circles cover
SPREAD_STEPS = 200
LABEL_EM = 0.56  # estimated width of a character, in font sizes
LABEL_SIZE = 13
LABEL_CHARS = 28  # longer labels are cut (the full name is in the hover title and the list)
PHONE_SCALE = 2.2  # on a phone the map is a third of its size: fewer labels, larger (site.css)
DOTS_WIDTH = 600
DOTS_HEIGHT = 320
DOT_RADIUS = 5
MAX_DOTS = 300
OUTLIERS_FROM = 20  # with this many dots, the outermost 2% on each side are drawn at the edge


@dataclass(frozen=True, slots=True)
class Placed:
    """A topic on the map: centre, radius, its label (None: hover title only) and where."""

    x: int
    y: int
    r: int
    label: str | None
    label_y: int
    big_y: int = 0  # where the label goes on a phone, at ``PHONE_SCALE`` times the size (0: not shown there)


def _axes(points: np.ndarray) -> np.ndarray:
    """``points`` (rows) on their two leading principal axes (signs fixed: the largest entry
    of each axis positive)."""
    centred = points - points.mean(axis=0)
    if len(points) < 2 or not np.any(centred):
        return np.zeros((len(points), 2))
    _, _, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    axes = vt[:2].T
    if axes.shape[1] < 2:
        axes = np.hstack([axes, np.zeros((axes.shape[0], 1))])
    signs = np.sign(axes[np.abs(axes).argmax(axis=0), np.arange(2)])
    return centred @ (axes * np.where(signs == 0, 1.0, signs))


def _fitted(xy: np.ndarray, width: float, height: float, pad: np.ndarray | float = 0.0,
            margin: float = MARGIN) -> tuple[np.ndarray, float]:
    """``xy`` scaled (one factor for both axes) and moved into the box: ``pad`` (in the
    units of ``xy``) around each point and ``margin`` (in the box's) inside its edges; and
    the factor."""
    pad = np.broadcast_to(np.asarray(pad, dtype=np.float64), (len(xy),))
    lo = (xy - pad[:, None]).min(axis=0)
    hi = (xy + pad[:, None]).max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    scale = min((width - 2 * margin) / span[0], (height - 2 * margin) / span[1])
    centre = (lo + hi) / 2
    return (xy - centre) * scale + np.array([width / 2, height / 2]), scale


def topic_layout(centroids: np.ndarray, sizes: np.ndarray, labels: list[str]) -> tuple[Placed, ...]:
    """Each topic's place on the map (in topic order)."""
    k = len(sizes)
    if k == 0:
        return ()
    xy = _evened(_axes(centroids)) * np.array([MAP_WIDTH / MAP_HEIGHT, 1.0])
    radius = np.sqrt(np.maximum(sizes, 1) / max(sizes.sum(), 1) * FILL * 4 / np.pi)  # in the same units
    xy = _spread(xy, radius)
    placed, scale = _fitted(xy, MAP_WIDTH, MAP_HEIGHT - LABEL_SIZE * 2, radius)
    placed[:, 1] += LABEL_SIZE / 2
    r = np.maximum(radius * scale, 3.0)
    shown = _labels(placed, r, sizes, labels, LABEL_SIZE)
    big = _labels(placed, r, sizes, labels, LABEL_SIZE * PHONE_SCALE)
    return tuple(Placed(int(round(placed[i, 0])), int(round(placed[i, 1])), int(round(r[i])),
                        shown[i][0] if i in shown else (big[i][0] if i in big else None),
                        shown[i][1] if i in shown else 0, big[i][1] if i in big else 0) for i in range(k))


def _labels(placed: np.ndarray, r: np.ndarray, sizes: np.ndarray, labels: list[str],
            size: float) -> dict[int, tuple[str, int]]:
    """The labels of ``size`` that fit: the largest topics' first, each under its circle
    where its box (estimated from its length) overlaps no label given before."""
    boxes: list[tuple[float, float, float, float]] = []
    shown: dict[int, tuple[str, int]] = {}
    for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        text = labels[i] if len(labels[i]) <= LABEL_CHARS else labels[i][:LABEL_CHARS - 1].rstrip() + "…"
        half = len(text) * LABEL_EM * size / 2
        y = placed[i, 1] + r[i] + size
        box = (placed[i, 0] - half, y - size, placed[i, 0] + half, y + 3)
        if box[0] < 0 or box[2] > MAP_WIDTH or box[3] > MAP_HEIGHT:
            continue
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
            continue
        boxes.append(box)
        shown[i] = (text, int(round(y)))
    return shown


def _evened(xy: np.ndarray) -> np.ndarray:
    """Each axis half by value, half by rank, in [-1, 1]: the order of the topics along it
    is kept, but a few far-out topics no longer squeeze the others into the middle."""
    out = np.zeros_like(xy, dtype=np.float64)
    n = len(xy)
    for axis in range(xy.shape[1]):
        values = xy[:, axis]
        span = np.abs(values).max()
        by_value = values / span if span > 0 else values
        ranks = np.empty(n)
        ranks[np.argsort(values, kind="stable")] = np.arange(n)
        by_rank = 2 * ranks / max(n - 1, 1) - 1
        out[:, axis] = (by_value + by_rank) / 2
    return out


def _spread(xy: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Circles pushed apart until they do not overlap (a little room left between them)."""
    xy = xy.astype(np.float64).copy()
    k = len(xy)
    if k < 2:
        return xy
    need = (radius[:, None] + radius[None, :]) * 1.08
    for _ in range(SPREAD_STEPS):
        delta = xy[:, None, :] - xy[None, :, :]
        dist = np.sqrt((delta ** 2).sum(axis=2))
        np.fill_diagonal(dist, np.inf)
        overlap = np.clip(need - dist, 0.0, None)
        np.fill_diagonal(overlap, 0.0)
        if not overlap.any():
            break
        # Two circles at one spot move apart along a fixed direction (by their order).
        same = dist < 1e-9
        direction = np.where(same[:, :, None], np.sign(np.arange(k)[:, None] - np.arange(k)[None, :])[:, :, None]
                             * np.array([1.0, 0.0]), delta / np.where(same, 1.0, dist)[:, :, None])
        xy += (direction * (overlap / 2)[:, :, None]).sum(axis=1) * 0.5
    return xy


def paper_dots(points: np.ndarray, centroid: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The papers shown on a topic's map (indices into ``points``: those closest to the
    centroid when there are more than ``MAX_DOTS``, in their order) and their places."""
    if len(points) > MAX_DOTS:
        fit = points @ centroid
        shown = np.sort(np.argsort(-fit, kind="stable")[:MAX_DOTS])
    else:
        shown = np.arange(len(points))
    if len(shown) == 0:
        return shown, []
    xy = _axes(points[shown])
    if len(xy) >= OUTLIERS_FROM:  # a few outliers would squeeze the rest into a corner
        lo, hi = np.percentile(xy, [2, 98], axis=0)
        xy = np.clip(xy, lo, hi)
    placed, _ = _fitted(xy, DOTS_WIDTH, DOTS_HEIGHT, margin=DOT_RADIUS + 4)
    return shown, [(int(round(x)), int(round(y))) for x, y in placed]
