//! Standing orders from a scenario's script (`Game::standing_orders`): whoever plays the side by
//! computer issues them at its Orders Phase before deciding anything else, paying CP as usual.

use sandtable_bfs::Command;
use sandtable_bfs::state::Game;

/// The command that carries out a standing order not yet in force, if one is among `options`.
pub fn next_standing_order(view: &Game, options: &[Command]) -> Option<Command> {
    view.standing_orders.iter().find_map(|(unit, order)| {
        let u = view.unit(*unit);
        let in_force = u.pending_order.and_then(|p| p.kind).or(u.order) == Some(*order);
        if in_force {
            return None;
        }
        options.iter().find(|c| matches!(c, Command::IssueOrder { unit: x, order: o, .. } if x == unit && o == order)).cloned()
    })
}
