//! Who sees whom (BFS-FOV-1..5, GEO-5), on top of the geometry crate's vision queries.

use crate::geo::{sid, unit_frame};
use crate::ids::UnitId;
use crate::state::{Formation, Game, UnitStatus};
use sandtable_geometry::vision::{self, Viewer, VisionArc};
use sandtable_geometry::{Rect, Scene, SceneBase};

/// 180° to the front, or all round for commanders, wagons, Skirmishers, Light Cavalry, Feigned
/// Flight (BFS-FOV-2/3) and a garrison (BFS-TER-30).
pub fn arc_of(game: &Game, unit: UnitId) -> VisionArc {
    // A garrison looks out of every wall (BFS-TER-30).
    if game.unit_profile(unit).all_round_vision()
        || game.unit(unit).garrison.is_some()
        || crate::commanded::applies(game, unit)
    {
        VisionArc::All360
    } else {
        VisionArc::Front180
    }
}

/// Where a unit looks from: the unit rectangle in close order, each base otherwise (GEO-5).
pub fn eyes(game: &Game, unit: UnitId) -> Vec<Rect> {
    let u = game.unit(unit);
    match u.formation {
        Formation::Close { .. } => vec![unit_frame(u)],
        Formation::OpenOrder | Formation::NonStandard => u.bases.clone(),
    }
}

/// Does this base block the sight of a unit of side `viewer_side`? All enemy units do; friendly
/// units do unless they are in Open Order (BFS-FOV-4).
pub fn blocks_sight_for<'a>(game: &'a Game, viewer_side: u8) -> impl Fn(&SceneBase) -> bool + 'a {
    move |b: &SceneBase| {
        if b.side != viewer_side {
            return true;
        }
        game.units
            .get(b.unit as usize)
            .is_some_and(|u| u.formation != Formation::OpenOrder)
    }
}

/// Can `viewer` see `target` (BFS-FOV, GEO-5)? `arc` overrides the viewer's own arc (charges check
/// 360° once, BFS-FOV-5).
pub fn sees(
    game: &Game,
    scene: &Scene,
    viewer: UnitId,
    target: UnitId,
    arc: Option<VisionArc>,
) -> bool {
    let eyes = eyes(game, viewer);
    let v = Viewer {
        unit: sid(viewer),
        eyes: &eyes,
        arc: arc.unwrap_or_else(|| arc_of(game, viewer)),
    };
    vision::sees(
        scene,
        &v,
        sid(target),
        blocks_sight_for(game, game.unit(viewer).side.0),
    )
    .ok()
    .flatten()
    .is_some()
}

/// Enemy units `viewer` sees, in id order.
pub fn visible_enemies(game: &Game, scene: &Scene, viewer: UnitId) -> Vec<UnitId> {
    let side = game.unit(viewer).side.0;
    let eyes = eyes(game, viewer);
    let v = Viewer {
        unit: sid(viewer),
        eyes: &eyes,
        arc: arc_of(game, viewer),
    };
    // Infantry on top of wagons sees over them (BFS-WAG-5).
    let on_wagons = crate::wagon::cover::standing_on(game, viewer);
    let blocks = blocks_sight_for(game, side);
    let blocks = |b: &SceneBase| blocks(b) && !on_wagons.contains(&UnitId(b.unit as u16));
    vision::visible_units(scene, &v, |e| e.side != side, blocks)
        .map(|found| {
            found
                .into_iter()
                .map(|(id, _)| UnitId(id as u16))
                .filter(|u| {
                    game.units
                        .get(u.index())
                        .is_some_and(|x| x.status == UnitStatus::OnTable)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Does `viewer` see commander `c` in `scene`, a scene holding his base
/// ([`crate::geo::scene_with_commanders`])? Commanders block nobody's sight (BFS-CDR-5).
pub fn sees_commander(
    game: &Game,
    scene: &Scene,
    viewer: UnitId,
    c: crate::ids::CommanderId,
) -> bool {
    let eyes = eyes(game, viewer);
    let v = Viewer {
        unit: sid(viewer),
        eyes: &eyes,
        arc: arc_of(game, viewer),
    };
    let side = game.unit(viewer).side.0;
    let blocks = |b: &SceneBase| !crate::geo::is_commander(b) && blocks_sight_for(game, side)(b);
    vision::sees(scene, &v, crate::geo::commander_sid(c), blocks)
        .ok()
        .flatten()
        .is_some()
}
