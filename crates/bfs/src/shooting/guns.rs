//! A gun's volley (BFS-ART-3..6, BFS-ART-10): its load, and the dice a cannonball rolls at its
//! target.

use super::{Fire, FireStage, Lanes, VolleyPlan, from_flank, volley_at};
use crate::event::Piece;
use crate::geo::{self, sid, unit_frame};
use crate::ids::UnitId;
use crate::profile::UnitKind;
use crate::state::{Formation, Game};
use sandtable_geometry::Scene;
use sandtable_geometry::fire::{self, RangeBand};

/// A gun's volley at the target the rules require, with the load its owner chose (BFS-ART-3):
/// cannonball, or case-shot whenever the target is within its range. Left to the crew, it fires
/// case-shot when the target is within range and the rules' odds say it takes off at least as
/// many Strength points, since it also forces a Morale test (BFS-ART-6). The organ gun fires
/// case-shot at effective range and cannonball beyond (BFS-ART-10).
#[allow(clippy::too_many_arguments)]
pub(super) fn gun_volley(
    game: &Game,
    scene: &Scene,
    shooter: UnitId,
    stage: FireStage,
    gun: crate::artillery::Gun,
    target: Piece,
    per_base: Vec<(usize, RangeBand, f32)>,
    lanes: &Lanes<'_>,
) -> Option<VolleyPlan> {
    use crate::artillery::{self, Ammunition};
    let weapon = crate::weapons::RangedWeapon::Gun(gun);
    let ball = weapon.stats(false);
    let case = artillery::case_shot_stats(gun);
    let closest = per_base.iter().map(|x| x.2).fold(f32::INFINITY, f32::min);
    let cannon = |per_base| {
        let (n, why) = artillery::dice(
            gun,
            Ammunition::Cannonball,
            cannonball_target(game, target, shooter),
            game.info.options.case_shot_caps,
        );
        volley_at(
            game,
            shooter,
            stage,
            target,
            per_base,
            lanes,
            &ball,
            Fire::Gun(Ammunition::Cannonball, n, why),
        )
    };
    let chosen = game.unit(shooter).gun.and_then(|g| g.load);
    if closest > case.effective_cm + sandtable_geometry::tolerance::LIMIT_EPS
        || chosen == Some(Ammunition::Cannonball)
    {
        return Some(cannon(per_base));
    }
    let target_bases = match target {
        Piece::Unit(t) => game.unit(t).bases.clone(),
        Piece::Commander(c) => vec![game.commander(c).base],
    };
    let scene_id = match target {
        Piece::Unit(t) => sid(t),
        Piece::Commander(c) => geo::commander_sid(c),
    };
    let case_lanes = match target {
        Piece::Commander(c) => {
            let with = geo::scene_with_commanders(game, &[c]);
            lanes.to(&with, scene_id, &target_bases, &case)
        }
        Piece::Unit(_) => lanes.to(scene, scene_id, &target_bases, &case),
    };
    let (n, why) = artillery::dice(
        gun,
        Ammunition::CaseShot,
        cannonball_target(game, target, shooter),
        game.info.options.case_shot_caps,
    );
    let case_plan = volley_at(
        game,
        shooter,
        stage,
        target,
        case_lanes,
        lanes,
        &case,
        Fire::Gun(Ammunition::CaseShot, n, why),
    );
    if case_plan.groups.is_empty() {
        return Some(cannon(per_base));
    }
    if gun.every_second_turn() || chosen == Some(Ammunition::CaseShot) {
        return Some(case_plan);
    }
    let ball_plan = cannon(per_base);
    Some(
        if case_plan.expected_losses() >= ball_plan.expected_losses() - 1e-9 {
            case_plan
        } else {
            ball_plan
        },
    )
}

/// What caps a cannonball's dice at this target (BFS-ART-4): a gun or a commander is a one-base
/// Open Order target (BFS-ART-1, BFS-CDR-7); a garrison is behind walls, a construction; a Close
/// Order unit fired on from its flank takes the full dice, from front or rear no more than its
/// ranks.
fn cannonball_target(
    game: &Game,
    target: Piece,
    shooter: UnitId,
) -> crate::artillery::CannonballTarget {
    use crate::artillery::CannonballTarget;
    let Piece::Unit(t) = target else {
        return CannonballTarget::OpenOrder;
    };
    let tu = game.unit(t);
    let tp = game.unit_profile(t);
    if tu.garrison.is_some() || tp.kind == UnitKind::Wagon {
        return CannonballTarget::Construction;
    }
    if tu.formation == Formation::OpenOrder || tp.kind == UnitKind::Artillery {
        return CannonballTarget::OpenOrder;
    }
    let from = fire::front_midpoint(&unit_frame(game.unit(shooter)))
        .unwrap_or_else(|_| unit_frame(game.unit(shooter)).center());
    if from_flank(game, t, from) {
        return CannonballTarget::CloseOrderFlank;
    }
    let files = match tu.formation {
        Formation::Close { files } => files.max(1) as usize,
        _ => 1,
    };
    CannonballTarget::CloseOrderFrontOrRear {
        ranks: tu.bases.len().div_ceil(files) as u32,
    }
}

/// A gun's to-hit modifier from the ground its target stands in: −1 at a target wholly in a
/// ploughed field, where cannonballs cannot bounce, on top of the rest (BFS-TER-26,
/// BFS-ART-21). A base partly in it counts as out of it, the reading less favourable to the
/// target (BFS-TER-6).
pub(super) fn ground_mods(game: &Game, target: Piece) -> Vec<crate::dice::Modifier> {
    use sandtable_engine::vocab::TerrainKind;
    let Piece::Unit(t) = target else {
        return Vec::new();
    };
    let bases = &game.unit(t).bases;
    let ploughed = !bases.is_empty()
        && bases.iter().all(|b| {
            crate::ground::footing_of(game, std::slice::from_ref(b))
                .wholly(TerrainKind::PloughedField)
        });
    if ploughed {
        vec![crate::dice::Modifier::new(
            "BFS-TER-26",
            "artillery at a target in a ploughed field: the balls cannot bounce",
            -1,
        )]
    } else {
        Vec::new()
    }
}

/// One die more for a gun firing at a unit that carries chevaux de frise or stands behind them
/// (BFS-OBS-10, BFS-ART-21).
pub(super) fn chevaux_die(
    game: &Game,
    target: Piece,
    shooter: UnitId,
) -> Option<crate::dice::DiceChange> {
    let Piece::Unit(t) = target else {
        return None;
    };
    let carries = game
        .unit(t)
        .carries
        .is_some_and(|c| c.kind == crate::portable::PortableKind::ChevauxDeFrise);
    let behind = crate::obstacle::screened_by(game, t, shooter)
        == Some(sandtable_engine::vocab::TerrainKind::ChevauxDeFrise);
    (carries || behind).then(|| crate::dice::DiceChange {
        rule: "BFS-OBS-10".into(),
        reason: "artillery at a unit with chevaux de frise".into(),
        delta: 1,
        base: 0,
    })
}
