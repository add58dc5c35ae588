//! A simple, fully predictable player: it follows fixed preferences (cavalry charge, shooters
//! defend, the rest advance). It drives `--autoplay` and the app's scripted tests, and is the
//! baseline the search player must beat.

use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::{Command, MoveStep, Reaction};
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, authority};
use sandtable_engine::Ruleset;

pub struct ScriptedPlayer;

impl ScriptedPlayer {
    /// The command this player makes in `state` for whoever must decide, or `None` at the end.
    /// `state` may be the full game or the deciding seat's view: it reads nothing hidden.
    pub fn choose(state: &Game) -> Option<Command> {
        let options = candidates(state);
        if options.is_empty() {
            return None;
        }
        let pick = |want: &dyn Fn(&Command) -> bool| options.iter().find(|c| want(c)).cloned();
        let chosen = match &state.turn.phase {
            Phase::InitiativeBids { .. } => pick(&|c| matches!(c, Command::Bid { cp: 1, .. })).or_else(|| pick(&|c| matches!(c, Command::Bid { cp: 0, .. }))),
            Phase::InitiativeChoice { .. } => pick(&|c| matches!(c, Command::ChooseInitiative { keep: true })),
            Phase::Orders { acting, .. } => {
                let acting = *acting;
                // Each unit without a new order gets its preferred order, cheapest commander first.
                let mut next = None;
                for u in state.units_on_table(acting).filter(|u| !u.flags.ordered && u.pending_order.is_none()) {
                    let p = state.profile(u.profile);
                    let want = if p.is_mounted() {
                        OrderKind::Charge
                    } else if p.shooting > 0 {
                        OrderKind::Defense
                    } else {
                        OrderKind::Move
                    };
                    let by = authority::commanders_who_may_order(state, u.id).into_iter().min_by_key(|c| (authority::order_cost(state, *c, u.id).cp, c.0));
                    if let Some(by) = by {
                        let c = Command::IssueOrder { unit: u.id, order: want, by };
                        if Bfs::legal(state, &c).is_ok() {
                            next = Some(c);
                            break;
                        }
                    }
                }
                next.or(Some(Command::EndOrders))
            }
            Phase::Movement { charge: Some(_), .. } => pick(&|c| matches!(c, Command::React { reaction: Reaction::Countercharge, .. }))
                .or_else(|| pick(&|c| matches!(c, Command::React { reaction: Reaction::Stand, .. }))),
            Phase::Movement { .. } => pick(&|c| matches!(c, Command::DeclareCharge { .. }))
                .or_else(|| pick(&|c| matches!(c, Command::Move { steps, .. } if steps.len() == 1 && matches!(steps[0], MoveStep::Forward(_)))))
                .or_else(|| pick(&|c| matches!(c, Command::Hold { .. })))
                .or_else(|| pick(&|c| matches!(c, Command::EndMovement))),
            Phase::Combat(_) => pick(&|c| matches!(c, Command::Continue)),
            Phase::GameOver => None,
        };
        chosen.or_else(|| options.first().cloned())
    }
}
