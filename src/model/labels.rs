//! Where each arrow's label goes in a lane's diagram: on its arrow where
//! that spot is free, else a little along or beside it, so that no label
//! covers a marker's words, a gap's pill or another label. Plain geometry
//! in the diagram's SVG units; the diagram view says what the boxes are.

/// A rectangle in a diagram's SVG units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// How much two rectangles share (0 when apart).
    pub fn overlap(&self, other: &Rect) -> f64 {
        let dx = (self.x + self.w).min(other.x + other.w) - self.x.max(other.x);
        let dy = (self.y + self.h).min(other.y + other.h) - self.y.max(other.y);
        if dx > 0.0 && dy > 0.0 {
            dx * dy
        } else {
            0.0
        }
    }
}

/// Height of a label's chip.
pub const CHIP_H: f64 = 14.0;
/// From a label's baseline up to its chip's top.
pub const CHIP_ABOVE: f64 = 10.5;

/// An arrow whose label is to be placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arrow {
    /// Start (the sender's column).
    pub x1: f64,
    /// Start y.
    pub y1: f64,
    /// End x.
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// Whether it arrives (else it stops halfway: its label sits by the
    /// sender, before the arrow).
    pub delivered: bool,
    /// The chip's width.
    pub width: f64,
    /// The lane's width (its chip stays inside): `LANE_WIDTH` for two
    /// columns, more for each further actor.
    pub lane: f64,
}

/// Where a label goes: its text's x and baseline, its anchor, and its
/// chip's left edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// x of the text (at its anchor).
    pub x: f64,
    /// Baseline of the text.
    pub y: f64,
    /// `text-anchor`.
    pub anchor: &'static str,
    /// Left edge of the chip.
    pub left: f64,
}

impl Spot {
    /// The chip's rectangle, `width` wide.
    pub fn chip(&self, width: f64) -> Rect {
        Rect {
            x: self.left,
            y: self.y - CHIP_ABOVE,
            w: width,
            h: CHIP_H,
        }
    }
}

/// Where on its arrow a label is tried, first to last (a fraction of the
/// way from the sender).
const ALONG: [f64; 5] = [0.5, 0.35, 0.65, 0.2, 0.8];
/// How far off the arrow a label is tried when no spot on it is free:
/// on it, just under it, above it, then a row further.
const BESIDE: [f64; 5] = [0.0, 18.0, -15.0, 33.0, -30.0];

/// The spot of an arrow's label as drawn when nothing is in the way.
pub fn plain_spot(a: &Arrow) -> Spot {
    spot_at(a, 0.5, 0.0)
}

fn spot_at(a: &Arrow, along: f64, beside: f64) -> Spot {
    if a.delivered {
        let x = a.x1 + (a.x2 - a.x1) * along;
        let y = a.y1 + (a.y2 - a.y1) * along - 5.0 + beside;
        let left = (x - a.width / 2.0).clamp(2.0, (a.lane - 2.0 - a.width).max(2.0));
        Spot {
            x: left + a.width / 2.0,
            y,
            anchor: "middle",
            left,
        }
    } else if a.x2 >= a.x1 {
        let x = a.x1 + 10.0;
        Spot {
            x,
            y: a.y1 - 5.0 + beside,
            anchor: "start",
            left: x - 3.0,
        }
    } else {
        let x = a.x1 - 10.0;
        Spot {
            x,
            y: a.y1 - 5.0 + beside,
            anchor: "end",
            left: x - a.width + 3.0,
        }
    }
}

/// The spots of `arrows`' labels, in order: each the first tried spot
/// whose chip overlaps none of `obstacles` nor an earlier label, else the
/// one that overlaps least. The same arrows and obstacles give the same
/// spots, so labels stay put while a run plays.
pub fn place(arrows: &[Arrow], obstacles: &[Rect]) -> Vec<Spot> {
    let mut placed: Vec<Rect> = Vec::with_capacity(arrows.len());
    let mut out = Vec::with_capacity(arrows.len());
    for a in arrows {
        let along: &[f64] = if a.delivered { &ALONG } else { &[0.5] };
        let mut best: Option<(f64, Spot)> = None;
        'search: for beside in BESIDE {
            for &t in along {
                let spot = spot_at(a, t, beside);
                let chip = spot.chip(a.width);
                let hit: f64 = obstacles
                    .iter()
                    .chain(&placed)
                    .map(|o| o.overlap(&chip))
                    .sum();
                if best.is_none_or(|(least, _)| hit < least) {
                    best = Some((hit, spot));
                }
                if hit <= 0.0 {
                    break 'search;
                }
            }
        }
        let spot = best.map_or_else(|| plain_spot(a), |(_, s)| s);
        placed.push(spot.chip(a.width));
        out.push(spot);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LANE_WIDTH;

    fn arrow(y1: f64, y2: f64, width: f64) -> Arrow {
        Arrow {
            x1: 42.0,
            y1,
            x2: 278.0,
            y2,
            delivered: true,
            width,
            lane: LANE_WIDTH,
        }
    }

    #[test]
    fn a_free_label_sits_in_the_middle_of_its_arrow() {
        let a = arrow(100.0, 120.0, 60.0);
        assert_eq!(place(&[a], &[]), vec![plain_spot(&a)]);
        assert_eq!(plain_spot(&a).x, 160.0);
        assert_eq!(plain_spot(&a).y, 105.0);
    }

    #[test]
    fn a_label_moves_off_a_marker_and_off_another_label() {
        let a = arrow(100.0, 112.0, 172.0);
        // A marker's words beside the client's column, where the label would go.
        let marker = Rect {
            x: 65.0,
            y: 97.0,
            w: 133.0,
            h: 12.0,
        };
        let spot = place(&[a], &[marker])[0];
        assert_eq!(spot.chip(a.width).overlap(&marker), 0.0, "{spot:?}");
        // Two labels at the same place: the second moves.
        let spots = place(&[a, a], &[]);
        assert_eq!(spots[0].chip(a.width).overlap(&spots[1].chip(a.width)), 0.0);
        // Chips stay inside the lane.
        for s in spots {
            assert!(s.left >= 2.0 && s.left + a.width <= LANE_WIDTH - 2.0);
        }
    }
}
