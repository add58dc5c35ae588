//! Victory at the end of the battle (BFS-VIC): Force Value, losses, the loss chart, Victory Points
//! and the result bands.

use crate::event::{VictoryReport, VictorySide};
use crate::ids::Side;
use crate::state::{Game, MoraleLevel, UnitStatus};

/// The loss bands of BFS-VIC-2, best first.
pub const BANDS: [&str; 6] = [
    "No losses",
    "Minor",
    "Acceptable",
    "Heavy",
    "Very heavy",
    "Massacre",
];

/// Upper bounds of Minor, Acceptable, Heavy and Very heavy for a Force Value (BFS-VIC-3): 10%,
/// 25%, 50% and 75%, rounded up, in integers to avoid float error.
pub fn thresholds(force_value: u32) -> [u32; 4] {
    let ceil_pct = |pct: u32| (force_value * pct).div_ceil(100);
    [ceil_pct(10), ceil_pct(25), ceil_pct(50), ceil_pct(75)]
}

/// Which band a loss falls in (an empty band is skipped, A-16).
pub fn band(force_value: u32, loss: u32) -> usize {
    if loss == 0 {
        return 0;
    }
    let t = thresholds(force_value);
    for (i, upper) in t.iter().enumerate() {
        if loss <= *upper {
            return i + 1;
        }
    }
    5
}

/// Victory Points a band gives: to you for bands 0..=3, to the enemy for 4 and 5 (BFS-VIC-2).
/// Returns (to you, to the enemy).
pub fn band_vp(band: usize) -> (i32, i32) {
    match band {
        0 => (6, 0),
        1 => (3, 0),
        2 => (1, 0),
        3 => (0, 0),
        4 => (0, 2),
        _ => (0, 4),
    }
}

/// Loss points (BFS-VIC-4): 1 per destroyed base, ½ per fled base rounded up (fleeing units still
/// on the table count as fled), a killed commander his CP level + 1.
pub fn loss_points(destroyed: u32, fled: u32, commanders: u32) -> u32 {
    destroyed + fled.div_ceil(2) + commanders
}

/// The result band for a margin (BFS-VIC-7).
pub fn result_name(margin: i32) -> &'static str {
    match margin {
        i32::MIN..=-13 => "historic defeat",
        -12..=-7 => "strategic defeat",
        -6..=-2 => "tactical defeat",
        -1..=1 => "draw",
        2..=6 => "tactical victory",
        7..=12 => "strategic victory",
        _ => "historic victory",
    }
}

/// What one side has lost, as the loss chart counts it (BFS-VIC-4): bases destroyed (with
/// those cut off, BFS-SCN-47, and wagons taken), bases fled (a unit still in Flight on the table
/// counts whole), and the loss points of commanders killed. The victory report and the
/// computer's evaluation both read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub destroyed: u32,
    pub fled: u32,
    pub commanders: u32,
}

/// The losses of side `s` as they stand.
pub fn tally(game: &Game, s: Side) -> Tally {
    let mut destroyed = 0u32;
    let mut fled = 0u32;
    // A manned gun counts for neither side's losses (BFS-MAN-21; the gun lost is counted).
    for u in game
        .units
        .iter()
        .filter(|u| u.side == s && u.manned_from.is_none())
    {
        // A taken wagon's losses before its capture are its first owner's (below).
        let before = u.taken_from.map_or(0, |t| t.lost_before);
        // Bases lost on the march count only if the unit is lost by the end (BFS-SCN-28).
        let lost = matches!(u.status, UnitStatus::Destroyed | UnitStatus::Left)
            || u.morale == MoraleLevel::Flight;
        let spared = if lost { 0 } else { u.march_losses };
        destroyed += u.bases_destroyed.saturating_sub(before + spared) as u32;
        let mut unit_fled = u.bases_fled as u32;
        if u.status == UnitStatus::OnTable && u.morale == MoraleLevel::Flight {
            unit_fled += u.bases.len() as u32;
        }
        // Fled bases cut off at the end count as destroyed (BFS-SCN-47).
        let cut = (u.cut_off as u32).min(unit_fled);
        destroyed += cut;
        fled += unit_fled - cut;
    }
    // Wagons the enemy took count as lost, as if destroyed (BFS-WAG-8; Sandtable's reading:
    // the book's loss chart counts bases the side no longer has).
    destroyed += game
        .units
        .iter()
        .filter_map(|u| {
            u.taken_from
                .filter(|t| t.from == s && u.side != s)
                .map(|t| (u, t))
        })
        .map(|(u, t)| u.bases.len() as u32 + t.lost_before as u32)
        .sum::<u32>();
    let commanders: u32 = game
        .commanders
        .iter()
        .filter(|c| c.side == s && c.status == UnitStatus::Destroyed)
        .map(|c| c.cp_max as u32 + 1)
        .sum();
    Tally {
        destroyed,
        fled,
        commanders,
    }
}

/// The victory report for the game as it stands (the battle is over).
pub fn report(game: &Game, reason: &str) -> VictoryReport {
    let mut sides = Vec::new();
    for s in Side::BOTH {
        let Tally {
            destroyed,
            fled,
            commanders,
        } = tally(game, s);
        let fv = game.side(s).force_value;
        let loss = loss_points(destroyed, fled, commanders);
        let b = band(fv, loss);
        sides.push(VictorySide {
            side: s,
            force_value: fv,
            bases_destroyed: destroyed,
            bases_fled: fled,
            commanders_lost_points: commanders,
            loss_points: loss,
            loss_band: BANDS[b].into(),
            vp_for_losses: 0,
            vp_for_scenario: crate::script::objective_vp(game, s),
            vp_total: 0,
        });
    }
    for i in 0..2 {
        let own = band_vp(
            BANDS
                .iter()
                .position(|b| *b == sides[i].loss_band)
                .unwrap_or(0),
        );
        let other = band_vp(
            BANDS
                .iter()
                .position(|b| *b == sides[1 - i].loss_band)
                .unwrap_or(0),
        );
        sides[i].vp_for_losses = own.0 + other.1;
        // VP for the scenario (objectives held) plus VP for losses (BFS-VIC-6).
        sides[i].vp_total = sides[i].vp_for_losses + sides[i].vp_for_scenario;
    }
    let margin = sides[0].vp_total - sides[1].vp_total;
    let winner = match margin {
        m if m >= 2 => Some(Side::A),
        m if m <= -2 => Some(Side::B),
        _ => None,
    };
    let result = result_name(margin.abs()).to_string();
    VictoryReport {
        reason: reason.into(),
        sides: [sides[0].clone(), sides[1].clone()],
        winner,
        margin: margin.abs(),
        result,
    }
}

/// Why the battle is over: a side with no units left in good order on the table has lost its
/// army (BFS-PSY-22 step 3); `None` while both stand.
pub fn army_lost(game: &Game) -> Option<String> {
    for s in Side::BOTH {
        if game.info.level == crate::scenario_spec::GameLevel::Division
            && game.regiments.iter().any(|r| r.side == s)
            && crate::motivation::all_wiped_out(game, s)
        {
            return Some(format!(
                "every Regiment of {} is Wiped Out (BFS-PSY-22)",
                game.side(s).name
            ));
        }
        let standing = game
            .units_on_table(s)
            .any(|u| u.morale != MoraleLevel::Flight);
        if !standing {
            return Some(format!(
                "{} has no units left that are not fleeing",
                game.side(s).name
            ));
        }
    }
    None
}

/// Why a battle at its turn limit ends (BFS-SCN-3).
pub fn turn_limit_reason(game: &Game) -> String {
    format!(
        "the turn limit of {} turns was reached (BFS-SCN-3)",
        game.info.turn_limit
    )
}

/// The report of a finished battle, derived from its final position exactly as it was made
/// when the battle ended; `None` while it goes on.
pub fn final_report(game: &Game) -> Option<VictoryReport> {
    if game.turn.phase != crate::turn::Phase::GameOver {
        return None;
    }
    let reason = army_lost(game).unwrap_or_else(|| turn_limit_reason(game));
    Some(report(game, &reason))
}

/// How losses and objectives become Victory Points and a result, in words built from the
/// tables above (BFS-VIC-2, BFS-VIC-6, BFS-VIC-7).
pub fn explanation() -> String {
    let bands: Vec<String> = (0..BANDS.len())
        .map(|b| match band_vp(b) {
            (own, 0) => format!("{} {own}", BANDS[b].to_lowercase()),
            (_, enemy) => format!("{} gives the enemy {enemy}", BANDS[b].to_lowercase()),
        })
        .collect();
    format!(
        "Losses give Victory Points (BFS-VIC-2): {}. Objectives held at the end add theirs \
         (BFS-VIC-6). The margin decides the result (BFS-VIC-7): within 1 a {}, from 2 a {}, \
         from 7 a {}, from 13 a {}.",
        bands.join(", "),
        result_name(0),
        result_name(2),
        result_name(7),
        result_name(13)
    )
}

/// The end screen's view of a finished battle.
pub fn outcome(game: &Game) -> Option<sandtable_engine::present::Outcome> {
    let r = final_report(game)?;
    let mut table = vec![
        [
            "",
            "Force Value",
            "bases destroyed",
            "bases fled",
            "commanders",
            "loss points",
            "losses",
            "VP for losses",
            "VP for objectives",
            "VP",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for s in &r.sides {
        table.push(vec![
            game.side(s.side).name.clone(),
            s.force_value.to_string(),
            s.bases_destroyed.to_string(),
            s.bases_fled.to_string(),
            s.commanders_lost_points.to_string(),
            s.loss_points.to_string(),
            s.loss_band.clone(),
            s.vp_for_losses.to_string(),
            s.vp_for_scenario.to_string(),
            s.vp_total.to_string(),
        ]);
    }
    Some(sandtable_engine::present::Outcome {
        winner: r.winner.map(|w| w.0),
        result: r.result.clone(),
        reason: r.reason.clone(),
        table,
        explanation: explanation(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explanation_reads_the_tables() {
        let e = explanation();
        assert!(
            e.contains("no losses 6, minor 3, acceptable 1, heavy 0"),
            "{e}"
        );
        assert!(
            e.contains("very heavy gives the enemy 2, massacre gives the enemy 4"),
            "{e}"
        );
        assert!(e.contains("from 7 a strategic victory"), "{e}");
    }

    #[test]
    fn bfs_vic_5_loss_chart_for_force_value_16() {
        // Jaskulski's volunteer cavalry: 12 bases + 4 CP = FV 16 → Minor 1-2, Acceptable 3-4,
        // Heavy 5-8, Very heavy 9-12, Massacre 13+.
        assert_eq!(thresholds(16), [2, 4, 8, 12]);
        assert_eq!(band(16, 0), 0);
        assert_eq!(band(16, 2), 1);
        assert_eq!(band(16, 4), 2);
        assert_eq!(band(16, 8), 3);
        assert_eq!(band(16, 12), 4);
        assert_eq!(band(16, 13), 5);
    }

    #[test]
    fn bfs_vic_5_worked_losses() {
        // 2 bases destroyed and one 3-base unit fled: 2 + ceil(1.5) = 4: Acceptable, 1 VP.
        let loss = loss_points(2, 3, 0);
        assert_eq!(loss, 4);
        assert_eq!(BANDS[band(16, loss)], "Acceptable");
        assert_eq!(band_vp(band(16, loss)), (1, 0));
        // All 5 bases destroyed (Heavy) plus the colonel with 4 CP killed (+5): 10, Very heavy,
        // 2 VP to the enemy.
        let loss = loss_points(5, 0, 4 + 1);
        assert_eq!(loss, 10);
        assert_eq!(BANDS[band(16, loss)], "Very heavy");
        assert_eq!(band_vp(band(16, loss)), (0, 2));
    }

    #[test]
    fn bfs_vic_7_result_bands_and_bfs_vic_8_example() {
        // A 10 VP, B 2 VP: margin +8, a strategic victory.
        assert_eq!(result_name(8), "strategic victory");
        assert_eq!(result_name(-8), "strategic defeat");
        assert_eq!(result_name(1), "draw");
        assert_eq!(result_name(-13), "historic defeat");
        assert_eq!(result_name(13), "historic victory");
        assert_eq!(result_name(2), "tactical victory");
    }
}
