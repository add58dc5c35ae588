//! The Initiative Phase (BFS-INI): pools restored, secret bids, the roll, keep or hand over.

use crate::event::Event;
use crate::ids::Side;
use crate::state::{Game, TurnFlags, UnitStatus};
use crate::turn::{Bid, Phase};
use sandtable_engine::RuleError;

/// Starts a turn: CP pools back to their army-list values (BFS-INI-1; AMB-35: reset, unspent
/// points are lost), per-turn flags cleared, bidding opens.
pub fn begin_turn(game: &mut Game, events: &mut Vec<Event>) {
    events.push(Event::TurnBegan {
        turn: game.turn.number,
    });
    events.push(Event::PhaseBegan {
        phase: "Initiative".into(),
        acting: None,
    });
    let turn = game.turn.number;
    for c in game
        .commanders
        .iter_mut()
        .filter(|c| c.status == UnitStatus::OnTable)
    {
        // A commander who escaped death has no CP in the following turn (BFS-CDR-9).
        c.cp = if c.stunned_until_turn >= turn {
            0
        } else {
            c.cp_max
        };
        c.moved = false;
        c.shot = false;
        events.push(Event::CpRestored {
            commander: c.id,
            cp: c.cp,
        });
    }
    for u in game.units.iter_mut() {
        u.flags = TurnFlags::default();
    }
    game.turn.initiative = None;
    game.turn.phase = Phase::InitiativeBids {
        bids: [Bid::Waiting, Bid::Waiting],
    };
}

/// The most a side may bid: its Commander-in-Chief's CP (BFS-INI-2); 0 without one.
pub fn max_bid(game: &Game, side: Side) -> u8 {
    game.commander_in_chief(side).map_or(0, |c| c.cp)
}

pub fn check_bid(game: &Game, side: Side, cp: u8) -> Result<(), RuleError> {
    let Phase::InitiativeBids { bids } = &game.turn.phase else {
        return Err(RuleError::new(
            "BFS-INI-2",
            "Bids are made at the start of the Initiative Phase, not now.",
        ));
    };
    if side.index() > 1 {
        return Err(RuleError::new("BFS-INI-2", "There are only two sides."));
    }
    if bids[side.index()] != Bid::Waiting {
        return Err(RuleError::new(
            "BFS-INI-2",
            format!("{} has already bid this turn.", game.side(side).name),
        ));
    }
    let max = max_bid(game, side);
    if cp > max {
        return Err(RuleError::new(
            "BFS-INI-2",
            match game.commander_in_chief(side) {
                Some(c) => format!("Too many: {} has only {max} CP to bid.", c.name),
                None => {
                    "This side has no Commander-in-Chief on the table, so it cannot bid CP.".into()
                }
            },
        ));
    }
    Ok(())
}

pub fn bid(game: &mut Game, side: Side, cp: u8, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_bid(game, side, cp)?;
    let Phase::InitiativeBids { bids } = &mut game.turn.phase else {
        unreachable!("checked above")
    };
    bids[side.index()] = Bid::Placed(cp);
    let bids = *bids;
    events.push(Event::BidPlaced { side });
    if let [Bid::Placed(a), Bid::Placed(b)] = bids {
        roll_initiative(game, [a, b], events);
    }
    Ok(())
}

/// Bids are revealed and paid whether or not they win (BFS-INI-2, proposed); each side rolls a
/// D10 ("0" is 10, the highest) plus 2 per CP bid; ties are rerolled with the same bonus
/// (BFS-INI-3).
fn roll_initiative(game: &mut Game, bids: [u8; 2], events: &mut Vec<Event>) {
    events.push(Event::BidsRevealed { bids });
    for side in Side::BOTH {
        let paid = bids[side.index()];
        if paid > 0
            && let Some(id) = game.commander_in_chief(side).map(|c| c.id)
        {
            let c = game.commander_mut(id);
            c.cp = c.cp.saturating_sub(paid);
            events.push(Event::CpSpent {
                commander: id,
                cp: paid,
                rule: "BFS-INI-2".into(),
                reason: "Initiative bid".into(),
            });
        }
    }
    let bonus = [bids[0] * 2, bids[1] * 2];
    let mut rounds = Vec::new();
    let winner = loop {
        let faces = [game.dice.d10(), game.dice.d10()];
        rounds.push(faces);
        let a = faces[0] as u32 + bonus[0] as u32;
        let b = faces[1] as u32 + bonus[1] as u32;
        if a != b {
            break if a > b { Side::A } else { Side::B };
        }
        if rounds.len() > 1000 {
            // Unreachable in practice (ties 1 time in 10 at worst); keeps the loop provably finite.
            break Side::A;
        }
    };
    let last = *rounds.last().expect("at least one round");
    events.push(Event::InitiativeRolled {
        rounds,
        bonus,
        winner,
    });
    let winner = decisive_moment(game, winner, last, bonus, events);
    game.turn.phase = Phase::InitiativeChoice { winner };
}

/// Decisive Moment (BFS-SCN-37): once in the battle, the side holding the marker may roll its
/// Initiative die again after both have rolled. Sandtable uses it for that side when it has lost
/// the roll, the only time a reroll can help; a tie after it is rolled off as usual. Returns the
/// winner after it.
fn decisive_moment(
    game: &mut Game,
    winner: Side,
    last: [u8; 2],
    bonus: [u8; 2],
    events: &mut Vec<Event>,
) -> Side {
    let loser = winner.other();
    let held = &mut game.info.pre_battle.decisive_moment;
    let Some(at) = held.iter().position(|s| *s == loser.index()) else {
        return winner;
    };
    held.remove(at);
    let mut faces = last;
    faces[loser.index()] = game.dice.d10();
    let mut rounds = vec![faces];
    let total = |f: [u8; 2], s: Side| f[s.index()] as u32 + bonus[s.index()] as u32;
    let mut new_winner = if total(faces, loser) > total(faces, winner) {
        loser
    } else {
        winner
    };
    if total(faces, loser) == total(faces, winner) {
        // A tie is rolled off by both, as any tie (BFS-INI-3).
        new_winner = loop {
            let f = [game.dice.d10(), game.dice.d10()];
            rounds.push(f);
            if total(f, Side::A) != total(f, Side::B) {
                break if total(f, Side::A) > total(f, Side::B) {
                    Side::A
                } else {
                    Side::B
                };
            }
            if rounds.len() > 1000 {
                break winner;
            }
        };
    }
    events.push(Event::Ruling {
        rule: "BFS-SCN-37".into(),
        text: format!(
            "Decisive Moment: {} rolls its Initiative die again: {}.",
            game.side(loser).name,
            faces[loser.index()]
        ),
    });
    events.push(Event::InitiativeRolled {
        rounds,
        bonus,
        winner: new_winner,
    });
    new_winner
}

pub fn check_choose(game: &Game) -> Result<Side, RuleError> {
    match game.turn.phase {
        Phase::InitiativeChoice { winner } => Ok(winner),
        _ => Err(RuleError::new(
            "BFS-INI-4",
            "Only the winner of the Initiative roll chooses, right after the roll.",
        )),
    }
}

/// The winner keeps the Initiative or hands it to the opponent, who must accept (BFS-INI-4).
pub fn choose(game: &mut Game, keep: bool, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let winner = check_choose(game)?;
    let initiative = if keep { winner } else { winner.other() };
    game.turn.initiative = Some(initiative);
    events.push(Event::InitiativeChosen {
        winner,
        keep,
        initiative,
    });
    // Big Mouthed Prisoner: in turn 1 the side whose plans were given away orders first, face up
    // (BFS-SCN-38).
    let first = Side::BOTH
        .into_iter()
        .find(|s| crate::turn_one::prisoner_talks(game, *s))
        .unwrap_or(initiative);
    if first != initiative {
        events.push(Event::Ruling {
            rule: "BFS-SCN-38".into(),
            text: format!(
                "Big Mouthed Prisoner: {} gives its orders first, face up.",
                game.side(first).name
            ),
        });
    }
    super::orders::begin_orders(game, first, false, events);
    Ok(())
}
