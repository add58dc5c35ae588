//! What a seat may see (design principle 3): the other side's face-down orders and secret bid are
//! removed, and so is the dice stream, so nobody can foresee a roll.

use crate::ids::Side;
use crate::state::Game;
use crate::turn::{Bid, Phase};

pub fn view(game: &Game, seat: Side) -> Game {
    let mut v = game.clone();
    for u in v.units.iter_mut().filter(|u| u.side != seat) {
        if let Some(p) = u.pending_order.as_mut().filter(|p| !p.face_up) {
            p.kind = None;
        }
        // Which commander paid for a face-down marker is visible, as the CP spent is.
        u.flags.charged_in_front = false;
        // Carried caltrops are marked on the roster only (BFS-OBS-5); kobylicas and chevaux
        // are seen on the bases.
        if u.carries
            .is_some_and(|c| c.kind == crate::portable::PortableKind::Caltrops)
        {
            u.carries = None;
        }
    }
    // The other side's new Instructions stay face down (BFS-ORD-11).
    for c in v.commanders.iter_mut().filter(|c| c.side != seat) {
        if let Some(p) = c.pending_instruction.as_mut() {
            p.kind = None;
        }
    }
    if let Phase::InitiativeBids { bids } = &mut v.turn.phase {
        let other = seat.other().index();
        if let Bid::Placed(_) = bids[other] {
            bids[other] = Bid::Hidden;
        }
    }
    // The script's standing orders for the other side's units are its secret.
    v.standing_orders
        .retain(|(u, _)| game.unit(*u).side == seat);
    // A fresh generator: the same shape of state, none of the future.
    v.dice = sandtable_engine::Dice::from_seed(0);
    v
}
