//! Succession (BFS-CMD-6; rules revision 11): when a Regimental commander is killed or leaves
//! the table, his deputy takes over the Regiment, the 2nd in Command before the 3rd. He becomes
//! its Regimental commander (the hierarchy for transferring CP, BFS-CMD-7, and the one who holds
//! its Instruction at Division level, BFS-ORD-11), and the Regiment's Instruction stays as it
//! was. A fallen Commander-in-Chief is not replaced at Task Force or Division level: nothing
//! here appoints one.
//!
//! Checked after every command, so every way a commander leaves the table (killed, captured,
//! fled off with his unit) is covered by one rule.

use crate::event::Event;
use crate::scenario_spec::CommanderRank;
use crate::state::{Game, UnitStatus};

/// Promotes the deputy of every Regiment whose Regimental commander is gone.
pub fn fill_vacancies(game: &mut Game, events: &mut Vec<Event>) {
    if !crate::revision::succession(game.info.options.rules_revision) {
        return;
    }
    let vacant: Vec<usize> =
        (0..game.regiments.len())
            .filter(|&r| {
                let id = game.regiments[r].id;
                let mine = |c: &&crate::state::Commander| c.regiment == Some(id);
                game.commanders
                    .iter()
                    .filter(mine)
                    .any(|c| c.rank == CommanderRank::Regimental && c.status != UnitStatus::OnTable)
                    && !game.commanders.iter().filter(mine).any(|c| {
                        c.rank == CommanderRank::Regimental && c.status == UnitStatus::OnTable
                    })
            })
            .collect();
    for r in vacant {
        let id = game.regiments[r].id;
        let heir = [CommanderRank::Second, CommanderRank::Third]
            .into_iter()
            .find_map(|rank| {
                game.commanders
                    .iter()
                    .find(|c| {
                        c.regiment == Some(id) && c.rank == rank && c.status == UnitStatus::OnTable
                    })
                    .map(|c| c.id)
            });
        let Some(heir) = heir else { continue };
        // The fallen commander's Instruction stays with the Regiment: it passes to the heir.
        // (He keeps his Regiment and rank, so its Motivation still counts him lost.)
        let fallen: Vec<_> = game
            .commanders
            .iter()
            .filter(|c| {
                c.regiment == Some(id)
                    && c.rank == CommanderRank::Regimental
                    && c.status != UnitStatus::OnTable
            })
            .map(|c| c.id)
            .collect();
        let (mut instruction, mut pending) = (None, None);
        for f in fallen {
            let cm = game.commander_mut(f);
            instruction = instruction.or(cm.instruction.take());
            pending = pending.or(cm.pending_instruction.take());
        }
        let deputy_rank = game.commander(heir).rank;
        let c = game.commander_mut(heir);
        c.rank = CommanderRank::Regimental;
        if c.instruction.is_none() {
            c.instruction = instruction;
        }
        if c.pending_instruction.is_none() {
            c.pending_instruction = pending;
        }
        events.push(Event::Ruling {
            rule: "BFS-CMD-6".into(),
            text: format!(
                "{}, {} in command, takes over {}: he is its Regimental commander now, and its \
                 Instruction stays as it was.",
                game.commander(heir).name,
                if deputy_rank == CommanderRank::Second {
                    "2nd"
                } else {
                    "3rd"
                },
                game.regiments[r].name
            ),
        });
    }
}
