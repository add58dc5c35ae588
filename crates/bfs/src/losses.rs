//! Strength points, casualty markers and removing bases (BFS-CBT-10..13).

use crate::event::Event;
use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::state::{Formation, Game, UnitStatus};
use sandtable_geometry::contact;

/// What caused the losses: it decides which base goes (BFS-CBT-12/13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossCause {
    Shooting,
    CloseCombat,
    /// Men sent away, to crew a war wagon (BFS-WAG-19): no Morale test, and not a loss to fire.
    Detached,
}

/// Strength points a unit still has.
pub fn sp_left(game: &Game, unit: UnitId) -> u32 {
    let u = game.unit(unit);
    // A War Wagon Train's Strength is its crews' (BFS-WAG-13).
    if let Some(t) = &u.train {
        return t.crew_left();
    }
    let per = game.unit_profile(unit).strength as u32;
    (u.bases.len() as u32 * per).saturating_sub(u.casualty_markers as u32)
}

/// Applies `sp` lost Strength points: all on one wounded base, a base removed at each full base's
/// worth (BFS-CBT-10). A unit cannot lose more than it has (BFS-CC-17). Returns bases removed.
pub fn apply(
    game: &mut Game,
    unit: UnitId,
    sp: u32,
    cause: LossCause,
    reason: &str,
    events: &mut Vec<Event>,
) -> u32 {
    if sp == 0 || game.unit(unit).status != UnitStatus::OnTable {
        return 0;
    }
    // A War Wagon Train's losses fall on its crews, wagon by wagon (BFS-WAG-13).
    if crate::wagon::train::is_train(game, unit) {
        crate::wagon::train::crew_losses(game, unit, None, sp, reason, events);
        return 0;
    }
    // A gun's additional crew takes the first loss (BFS-ART-18).
    let sp = crate::artillery::crew_takes_losses(game, unit, sp, events);
    if sp == 0 {
        return 0;
    }
    let sp = sp.min(sp_left(game, unit));
    let footprint = game.unit(unit).bases.clone();
    let per = game.unit_profile(unit).strength.max(1) as u32;
    let total = game.unit(unit).casualty_markers as u32 + sp;
    let remove = (total / per) as usize;
    let markers = (total % per) as u8;
    let mut removed = 0u32;
    for _ in 0..remove {
        let Some(i) = base_to_remove(game, unit, cause) else {
            break;
        };
        let u = game.unit_mut(unit);
        u.bases.remove(i);
        u.bases_destroyed += 1;
        removed += 1;
    }
    let u = game.unit_mut(unit);
    u.casualty_markers = if u.bases.is_empty() { 0 } else { markers };
    if let Formation::Close { files } = u.formation {
        u.formation = Formation::Close {
            files: files.min(u.bases.len() as u8).max(1),
        };
    }
    if cause == LossCause::Shooting {
        u.flags.bases_lost_to_shooting += removed as u8;
    }
    events.push(Event::Losses {
        unit,
        sp,
        bases_removed: removed,
        markers: u.casualty_markers,
        cause: reason.into(),
    });
    if u.bases.is_empty() {
        events.push(take_off(u, "BFS-CBT-10", "it lost its last base"));
        // A gun whose crew is lost stays on the table, abandoned (BFS-MAN-21).
        crate::gun_manning::abandon(game, unit, &footprint);
        // An ammunition wagon lost to anything but close combat explodes (BFS-WAG-3).
        if crate::wagon::supply::explodes_when_lost(game, unit, cause) {
            crate::wagon::supply::explode(game, unit, &footprint, None, events);
        }
    }
    removed
}

/// A unit that has lost its last base goes off the table with no order; the event says so.
pub fn take_off(u: &mut crate::state::Unit, rule: &str, reason: &str) -> Event {
    u.status = UnitStatus::Destroyed;
    u.order = None;
    u.charge = None;
    Event::UnitDestroyed {
        unit: u.id,
        rule: rule.into(),
        reason: reason.into(),
    }
}

/// Takes every base of the unit off the table at once, whatever it had left: destroyed by `rule`
/// (a combat lost when surrounded, a gun crew that would have fled…).
pub fn destroy_unit(
    game: &mut Game,
    unit: UnitId,
    rule: &str,
    reason: String,
    events: &mut Vec<Event>,
) {
    let footprint = game.unit(unit).bases.clone();
    crate::gun_manning::abandon(game, unit, &footprint);
    let u = game.unit_mut(unit);
    let n = u.bases.len() as u8;
    u.bases.clear();
    u.bases_destroyed += n;
    u.status = UnitStatus::Destroyed;
    u.casualty_markers = 0;
    events.push(Event::UnitDestroyed {
        unit,
        rule: rule.into(),
        reason,
    });
}

/// Which base to take off: after shooting, the owner's choice, which the engine makes as the
/// rear-most base (never breaking the formation, BFS-CBT-13); after close combat, bases not touching
/// the enemy first, then the one with least edge in contact (BFS-CBT-12).
fn base_to_remove(game: &Game, unit: UnitId, cause: LossCause) -> Option<usize> {
    let u = game.unit(unit);
    if u.bases.is_empty() {
        return None;
    }
    let frame = frame_of(&u.bases);
    // Rear first, then from the right: how far behind the front and how far right each base is.
    let rearness = |i: usize| {
        let l = frame.pose.to_local(u.bases[i].center());
        (-l.y, l.x)
    };
    let by_rear = |a: &usize, b: &usize| {
        let (ra, xa) = rearness(*a);
        let (rb, xb) = rearness(*b);
        ra.total_cmp(&rb).then(xa.total_cmp(&xb))
    };
    match cause {
        LossCause::Shooting | LossCause::Detached => (0..u.bases.len()).max_by(by_rear),
        LossCause::CloseCombat => {
            let enemies: Vec<_> = game
                .units
                .iter()
                .filter(|o| o.side != u.side && o.status == UnitStatus::OnTable)
                .flat_map(|o| o.bases.iter().copied())
                .collect();
            let engagement = |i: usize| -> (u8, f32) {
                let mut kind = 0u8;
                let mut length = 0.0f32;
                for e in &enemies {
                    if let Ok(c) = contact::contact(&u.bases[i], e) {
                        match c.kind {
                            contact::ContactKind::None => {}
                            contact::ContactKind::Corner => kind = kind.max(1),
                            contact::ContactKind::Edge => {
                                kind = kind.max(2);
                                length += c.edge_length;
                            }
                        }
                    }
                }
                (kind, length)
            };
            (0..u.bases.len()).min_by(|a, b| {
                let (ka, la) = engagement(*a);
                let (kb, lb) = engagement(*b);
                ka.cmp(&kb).then(la.total_cmp(&lb)).then(by_rear(b, a))
            })
        }
    }
}

/// What a unit's state does to the dice of its first group of bases: the base with the casualty
/// marker rolls one die fewer when it is among those rolling (BFS-CBT-10), and an attached
/// commander adds one (BFS-CDR-13).
pub fn first_base_dice(u: &crate::state::Unit, marker_rolls: bool) -> Vec<crate::dice::DiceChange> {
    let mut out = Vec::new();
    if u.casualty_markers > 0 && marker_rolls {
        out.push(crate::dice::DiceChange {
            rule: "BFS-CBT-10".into(),
            reason: "casualty marker: the weakened base rolls 1 die fewer".into(),
            delta: -1,
            base: 0,
        });
    }
    if u.attached.is_some() {
        out.push(crate::dice::DiceChange {
            rule: "BFS-CDR-13".into(),
            reason: "attached commander: +1 die".into(),
            delta: 1,
            base: 0,
        });
    }
    out
}
