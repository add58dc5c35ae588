//! A piece in words: its card in the side panel (profile and state), its hover tooltip, and each
//! side's turn points.

use super::table::{Thing, markers, thing};
use crate::force::Trait;
use crate::state::{Game, INCH, Leader, Unit};
use crate::tables::tables;
use crate::vocab::{Arm, CavWeight, Standing};
use sandtable_engine::Seat;
use sandtable_engine::present::{Card, PieceId, PoolLine};

pub fn arm_name(arm: Arm) -> String {
    match arm {
        Arm::Infantry => "Infantry".into(),
        Arm::Cavalry(CavWeight::Light) => "Light cavalry".into(),
        Arm::Cavalry(CavWeight::Medium) => "Medium cavalry".into(),
        Arm::Cavalry(CavWeight::Heavy) => "Heavy cavalry".into(),
        Arm::Artillery {
            horse,
            calibre,
            guns,
            howitzers,
        } => format!(
            "{} artillery, {}: {guns} gun(s), {howitzers} howitzer(s)",
            if horse { "Horse" } else { "Foot" },
            calibre.name()
        ),
    }
}

pub fn standing_name(s: Standing) -> String {
    match s {
        Standing::Good => "good order".into(),
        Standing::Disordered => "disordered".into(),
        Standing::Retreat { to_reform } => format!("in retreat ({to_reform} action(s) to reform)"),
        Standing::Routed => "routed".into(),
        Standing::Gone => "gone".into(),
    }
}

pub fn card(view: &Game, piece: PieceId) -> Option<Card> {
    Some(match thing(view, piece)? {
        Thing::Unit(u) => unit_card(view, view.unit(u)),
        Thing::Leader(l) => leader_card(view, view.leader(l)),
    })
}

fn unit_card(game: &Game, u: &Unit) -> Card {
    let p = &u.profile;
    let brigade = game
        .brigades
        .get(u.brigade as usize)
        .map_or("", |b| b.name.as_str());
    let traits: Vec<&str> = p
        .traits
        .iter()
        .map(|t| match t {
            Trait::Rifles => "rifles (R class)",
            Trait::TwoRankTrained => "two-rank training",
            Trait::MilitiaLike => "militia-type",
            Trait::Skirmishers => "may skirmish",
        })
        .collect();
    let mut rows = vec![
        ("Arm".to_string(), arm_name(p.arm)),
        ("Rating".into(), p.rating.name().into()),
        (
            "Figures".into(),
            format!("{} of {}", u.figures, u.start_figures),
        ),
        ("Morale number".into(), format!("{} (G7)", u.morale_number)),
        (
            "Melee value".into(),
            format!(
                "{} (G9)",
                tables().base_melee(
                    p.arm,
                    p.rating,
                    u.formation != crate::vocab::Formation::Unlimbered
                )
            ),
        ),
    ];
    if let Some(w) = p.small_arm() {
        rows.push(("Small arms".into(), format!("{w:?}")));
    }
    if p.arm.is_artillery() {
        rows.push(("Ammunition".into(), format!("{} (NQ-ART-9)", u.ammo.name())));
    }
    if let Some(r) = crate::actions::move_rate(game, u.id, false) {
        rows.push((
            "Move per action".into(),
            format!("{r}\" in {}", u.formation.name()),
        ));
    }
    let reach = crate::charge::charge_reach(game, u.id);
    if reach > 0.0 {
        rows.push(("Charge".into(), format!("{reach}\" (one action)")));
    }
    Card {
        title: u.name.clone(),
        side: Some(u.side),
        lines: vec![
            format!(
                "{} — {} — {}",
                p.name, brigade, game.side_names[u.side as usize]
            ),
            format!(
                "{} · {} · {} · {} action(s) left",
                u.formation.name(),
                standing_name(u.standing),
                u.fatigue.name(),
                u.actions_left
            ),
            format!("Markers: {}", {
                let m = markers(u);
                if m.is_empty() {
                    "none".into()
                } else {
                    m.join(" ")
                }
            }),
        ],
        rows,
        notes: traits.join(", "),
    }
}

fn leader_card(game: &Game, l: &Leader) -> Card {
    let brigade = game.brigades.get(l.brigade as usize);
    let units = game
        .present_units(l.side)
        .filter(|u| u.brigade == l.brigade)
        .map(|u| u.name.clone())
        .collect::<Vec<_>>();
    Card {
        title: l.name.clone(),
        side: Some(l.side),
        lines: vec![
            format!("Leader of {}", brigade.map_or("", |b| b.name.as_str())),
            format!(
                "Command radius {}\" (G5) · moves {}\" at step 8 (NQ-MOV-5)",
                game.options.command_radius, game.options.leader_move
            ),
        ],
        rows: vec![("Units".into(), units.join(", "))],
        notes: String::new(),
    }
}

pub fn tooltip(view: &Game, piece: PieceId, selection: Option<PieceId>) -> Vec<String> {
    let Some(t) = thing(view, piece) else {
        return Vec::new();
    };
    match t {
        Thing::Leader(l) => vec![view.leader(l).name.clone()],
        Thing::Unit(u) => {
            let x = view.unit(u);
            let mut lines = vec![
                x.name.clone(),
                format!(
                    "{} figures, {} · {} · {}",
                    x.figures,
                    x.formation.name(),
                    standing_name(x.standing),
                    x.fatigue.name()
                ),
            ];
            if let Some(sel) = super::table::unit_of(view, selection)
                && sel != u
            {
                let d = crate::footprint::gap(&view.unit(sel).rect(), &x.rect()) / INCH;
                lines.push(format!("{d:.1}\" from {}", view.unit(sel).name));
            }
            lines
        }
    }
}

/// Both sides' turn points left: public to both seats (bids are secret, what is left is not).
pub fn pools(view: &Game, _seat: Seat) -> Vec<PoolLine> {
    (0..2u8)
        .map(|s| PoolLine {
            side: s,
            text: format!(
                "{}: {} turn point(s){}",
                view.side_names[s as usize],
                view.turn_points[s as usize],
                if view.period > 0
                    && s == view.side_a
                    && !matches!(
                        view.phase,
                        crate::state::Phase::Bidding { .. }
                            | crate::state::Phase::ChooseSide { .. }
                    )
                {
                    " · side A"
                } else {
                    ""
                },
            ),
        })
        .collect()
}
