//! Where a lane's actors stand: one column per actor of the timeline
//! (the client and the server, or more: a gateway, an authorization
//! server), the lane as wide as they need, and which column a message
//! or a marker belongs to. A lane of two actors is drawn exactly as
//! before there were more.

use mcp_lanes_core::sim::{Actor, Event, MessageEvent, Timeline};

use super::{event_side, CLIENT_X, LANE_WIDTH, SERVER_X};
use crate::i18n::t;

/// The distance between two neighbouring columns.
pub const SPACING: f64 = SERVER_X - CLIENT_X;

/// A lane's columns, left to right.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    /// The actors, in column order.
    pub actors: Vec<Actor>,
}

impl Columns {
    /// The columns of a timeline ([`Timeline::columns`]).
    pub fn of(timeline: &Timeline) -> Columns {
        Columns {
            actors: timeline.columns(),
        }
    }

    /// How many columns.
    pub fn count(&self) -> usize {
        self.actors.len().max(2)
    }

    /// Whether a lane of `timeline` has more than two columns (the page
    /// gives it two grid tracks where they fit: class `wide`).
    pub fn wide(timeline: &Timeline) -> bool {
        Columns::of(timeline).count() > 2
    }

    /// The x of an actor's column (the first column for an actor the
    /// timeline does not list).
    pub fn x(&self, actor: Actor) -> f64 {
        let k = self.actors.iter().position(|a| *a == actor).unwrap_or(0);
        CLIENT_X + k as f64 * SPACING
    }

    /// The x of the first column.
    pub fn first_x(&self) -> f64 {
        CLIENT_X
    }

    /// The x of the last column.
    pub fn last_x(&self) -> f64 {
        CLIENT_X + (self.count() - 1) as f64 * SPACING
    }

    /// The lane's width: [`LANE_WIDTH`] for two columns, a column's
    /// spacing more for each further one.
    pub fn width(&self) -> f64 {
        LANE_WIDTH + (self.count() - 2) as f64 * SPACING
    }

    /// The x where a message starts and the x of the column it goes to.
    pub fn message_xs(&self, message: &MessageEvent) -> (f64, f64) {
        let (from, to) = message.ends();
        (self.x(from), self.x(to))
    }

    /// Whether an actor's column is the last (its markers' words go to
    /// its left).
    pub fn is_last(&self, actor: Actor) -> bool {
        self.x(actor) >= self.last_x()
    }

    /// The extra class of the lane's drawing, saying how many columns it
    /// has (`None` for two).
    pub fn class(&self) -> Option<&'static str> {
        match self.count() {
            2 => None,
            3 => Some("cols-3"),
            _ => Some("cols-4"),
        }
    }
}

/// The column an event's marker sits on (`None`: across all): the actor
/// it names, else the side its kind names.
pub fn event_actor(event: &Event) -> Option<Actor> {
    event
        .actor
        .or_else(|| event_side(&event.kind).map(Actor::of))
}

/// An actor's name, in the page's language.
pub fn actor_name(actor: Actor) -> String {
    t(match actor {
        Actor::Client => "side.client",
        Actor::Server => "side.server",
        Actor::Gateway => "actor.gateway",
        Actor::AuthServer => "actor.auth_server",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_stand_where_they_always_did() {
        let cols = Columns {
            actors: vec![Actor::Client, Actor::Server],
        };
        assert_eq!(cols.x(Actor::Client), CLIENT_X);
        assert_eq!(cols.x(Actor::Server), SERVER_X);
        assert_eq!(cols.width(), LANE_WIDTH);
        assert_eq!(cols.class(), None);
    }

    #[test]
    fn a_third_column_widens_the_lane_by_one_spacing() {
        let cols = Columns {
            actors: vec![Actor::Client, Actor::Server, Actor::AuthServer],
        };
        assert_eq!(cols.x(Actor::AuthServer), SERVER_X + SPACING);
        assert_eq!(cols.width(), LANE_WIDTH + SPACING);
        assert!(cols.is_last(Actor::AuthServer));
        assert!(!cols.is_last(Actor::Server));
    }
}
