//! Portable obstacles (BFS-OBS): kobylicas, caltrops and chevaux de frise, carried by a unit
//! from the start of the battle and set up on the table by a Special Maneuver.
//!
//! Carried kobylicas and chevaux slow their unit to 5 cm and its fire to 1 die a base, and are
//! lost when it withdraws or flees. Set up, each element becomes a terrain piece of its own kind:
//! an obstacle crossed by the maneuver ([`crate::obstacle`]) that gives no cover; kobylicas raise
//! infantry's Armor to 4, chevaux lower the Armor of the unit behind them against firearms, and
//! caltrops stop only horses, which test Skill when they touch or cross them.
//!
//! Caltrops are cleared by infantry within 5 cm (2 Special Maneuvers); chevaux de frise are
//! carried away by the unit that set them up, or destroyed by any other (1 Special Maneuver);
//! never with an enemy in contact with them (BFS-OBS-6, BFS-OBS-11).
//!
//! Chevaux and caltrops may also go up as the last step of a move (a Movement Maneuver).
//!
//! Not yet: artillery's extra die against
//! chevaux, the Division-level
//! purchase limits (half the regiments, one regiment of caltrops) and the Force Strength Points
//! they cost (both with the army builder of the pre-battle issue).

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::UnitKind;
use crate::scenario_spec::GameLevel;
use crate::state::{Game, MoraleLevel, TerrainPiece, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_engine::vocab::TerrainKind;
use sandtable_geometry::{Pose, Rect, Vec2};
use serde::{Deserialize, Serialize};

/// The three kinds of portable obstacle (BFS-OBS-2, -5, -8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PortableKind {
    Kobylica,
    Caltrops,
    ChevauxDeFrise,
}

/// What a unit carries: the kind and the number of elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub kind: PortableKind,
    pub elements: u8,
}

/// A unit carrying kobylicas or chevaux moves at most this far (BFS-OBS-3, BFS-OBS-8).
pub const CARRYING_MOVE_CM: f32 = 5.0;
/// Caltrops are scattered this far in front of the unit (within the 5 cm of BFS-OBS-6).
pub const CALTROPS_GAP_CM: f32 = 1.0;

impl PortableKind {
    /// The terrain kind an element becomes once set up.
    pub fn terrain(self) -> TerrainKind {
        match self {
            PortableKind::Kobylica => TerrainKind::Kobylica,
            PortableKind::Caltrops => TerrainKind::Caltrops,
            PortableKind::ChevauxDeFrise => TerrainKind::ChevauxDeFrise,
        }
    }

    /// An element's size, cm: length × depth (the geometry summary of part 3).
    pub fn element_size(self) -> Vec2 {
        match self {
            PortableKind::Caltrops => Vec2::new(4.0, 2.0),
            PortableKind::Kobylica | PortableKind::ChevauxDeFrise => Vec2::new(4.0, 1.5),
        }
    }

    /// Special Maneuvers to set up (BFS-OBS-3: 2; BFS-OBS-9: 1) or scatter (BFS-OBS-6: 1).
    pub fn set_up_maneuvers(self) -> u8 {
        match self {
            PortableKind::Kobylica => 2,
            PortableKind::Caltrops | PortableKind::ChevauxDeFrise => 1,
        }
    }

    /// Does carrying it slow the unit and its fire (BFS-OBS-3, BFS-OBS-8)? Caltrops do not
    /// (BFS-OBS-5).
    pub fn burdens(self) -> bool {
        self != PortableKind::Caltrops
    }

    pub fn name(self) -> &'static str {
        match self {
            PortableKind::Kobylica => "kobylicas",
            PortableKind::Caltrops => "caltrops",
            PortableKind::ChevauxDeFrise => "chevaux de frise",
        }
    }

    fn rule(self) -> &'static str {
        match self {
            PortableKind::Kobylica => "BFS-OBS-3",
            PortableKind::Caltrops => "BFS-OBS-6",
            PortableKind::ChevauxDeFrise => "BFS-OBS-9",
        }
    }
}

/// Is what a unit of `bases` bases carries allowed at this level (BFS-OBS-1, -2, -5, -8)?
/// `fortifications`: the scenario allows field fortifications, which at Skirmish level is what
/// allows portable obstacles.
pub fn check_carried(
    c: &Carried,
    bases: u8,
    level: GameLevel,
    fortifications: bool,
) -> Result<(), String> {
    if level != GameLevel::Division && !fortifications {
        return Err(format!(
            "{} at this level need a scenario that allows field fortifications (option field_fortifications, BFS-OBS-1)",
            c.kind.name()
        ));
    }
    if level == GameLevel::Skirmish && c.kind == PortableKind::Caltrops {
        return Err("caltrops are not allowed at Skirmish level (BFS-OBS-1)".into());
    }
    match c.kind {
        PortableKind::Kobylica if c.elements != bases => Err(format!(
            "a unit with kobylicas carries exactly one element per base: {bases}, not {} (BFS-OBS-2)",
            c.elements
        )),
        PortableKind::Caltrops if c.elements == 0 || c.elements > bases / 2 => Err(format!(
            "caltrops: 1 to {} elements for {bases} bases (one per 2 bases, BFS-OBS-5)",
            bases / 2
        )),
        PortableKind::ChevauxDeFrise if c.elements == 0 || c.elements > bases => Err(format!(
            "chevaux de frise: 1 to {bases} elements (one per base, BFS-OBS-8)"
        )),
        _ => Ok(()),
    }
}

/// The Move a unit's burden leaves it (BFS-OBS-3, BFS-OBS-8).
pub fn allowance_cap(game: &Game, unit: UnitId) -> Option<f32> {
    game.unit(unit)
        .carries
        .filter(|c| c.kind.burdens())
        .map(|_| CARRYING_MOVE_CM)
}

/// Carrying kobylicas or chevaux, a unit shoots 1 die a base (BFS-OBS-3, BFS-OBS-8).
pub fn burdened(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).carries.is_some_and(|c| c.kind.burdens())
}

/// A unit that withdraws or flees drops what it carries (BFS-OBS-3, BFS-OBS-8).
pub fn drop_carried(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    let Some(c) = game.unit(unit).carries.filter(|c| c.kind.burdens()) else {
        return;
    };
    game.unit_mut(unit).carries = None;
    events.push(Event::Ruling {
        rule: c.kind.rule().into(),
        text: format!(
            "{} loses its {}: a unit forced to withdraw or flee leaves them behind",
            game.unit(unit).name,
            c.kind.name()
        ),
    });
}

/// Where the elements go (BFS-OBS-4, -6, -9): kobylicas and chevaux with a long edge against
/// the whole front edge of a front-rank base (kobylicas then against the outer flanks of the
/// end bases, front rank first); caltrops 1 cm in front of the front rank. Each must lie clear
/// of every unit and of ground impassable to foot.
pub fn placements(game: &Game, unit: UnitId, bases: &[Rect], c: &Carried) -> Vec<Rect> {
    let size = c.kind.element_size();
    let half = size * 0.5;
    let mut spots: Vec<Rect> = Vec::new();
    let frame = crate::geo::frame_of(bases);
    let front_y = frame.half.y;
    let axes = Pose::new(frame.center(), frame.pose.angle);
    let mut front: Vec<&Rect> = bases
        .iter()
        .filter(|b| (axes.to_local(b.center()).y + b.half.y - front_y).abs() < 0.05)
        .collect();
    front.sort_by(|a, b| {
        axes.to_local(a.center())
            .x
            .total_cmp(&axes.to_local(b.center()).x)
    });
    let gap = if c.kind == PortableKind::Caltrops {
        CALTROPS_GAP_CM
    } else {
        0.0
    };
    for b in &front {
        let at = b.center() + b.facing() * (b.half.y + gap + half.y);
        spots.push(Rect::new(Pose::new(at, b.pose.angle), half));
    }
    if c.kind == PortableKind::Kobylica {
        // The flanks of each rank's end bases, element turned along the side edge.
        let mut ranks: Vec<(f32, Vec<&Rect>)> = Vec::new();
        for b in bases {
            let y = axes.to_local(b.center()).y;
            match ranks.iter_mut().find(|(ry, _)| (ry - y).abs() < 0.05) {
                Some((_, r)) => r.push(b),
                None => ranks.push((y, vec![b])),
            }
        }
        ranks.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, rank) in &mut ranks {
            rank.sort_by(|a, b| {
                axes.to_local(a.center())
                    .x
                    .total_cmp(&axes.to_local(b.center()).x)
            });
            let ends = [(rank.first(), -1.0f32), (rank.last(), 1.0)];
            for (b, sign) in ends {
                let Some(b) = b else { continue };
                let right = Vec2::new(b.facing().y, -b.facing().x);
                let at = b.center() + right * sign * (b.half.x + half.y);
                spots.push(Rect::new(
                    Pose::new(at, b.pose.angle + std::f32::consts::FRAC_PI_2),
                    half,
                ));
            }
        }
    }
    let scene = crate::geo::scene(game);
    let foot = game.unit_profile(unit);
    spots
        .into_iter()
        .filter(|r| {
            let t = game.info.table;
            r.corners()
                .iter()
                .all(|c| c.x >= 0.0 && c.y >= 0.0 && c.x <= t.x && c.y <= t.y)
        })
        .filter(|r| {
            !scene.bases().iter().any(|sb| {
                sb.unit != crate::geo::sid(unit)
                    && sandtable_engine::scenario_check::rects_overlap(r, &sb.rect)
            }) && !bases
                .iter()
                .any(|b| sandtable_engine::scenario_check::rects_overlap(r, b))
        })
        .filter(|r| {
            !scene.terrain().iter().any(|piece| {
                game.terrain.get(piece.id as usize).is_some_and(|t| {
                    crate::geo::terrain_class(t.kind, foot) == crate::geo::TerrainClass::Impassable
                }) && piece.overlap_area(r).is_ok_and(|a| a > 1e-3)
            })
        })
        .take(c.elements as usize)
        .collect()
}

/// May the unit set up what it carries now (BFS-OBS-3, -6, -9)? Returns the elements' places.
pub fn check_set_up(game: &Game, unit: UnitId) -> Result<Vec<Rect>, RuleError> {
    check_set_up_at(game, unit, &game.unit(unit).bases, false)
}

/// As [`check_set_up`] with the unit's bases at `bases`; `moving`: as the last step of a move
/// (a Movement Maneuver), which chevaux and caltrops allow and kobylicas do not (BFS-OBS-3,
/// BFS-OBS-6, BFS-OBS-9).
pub fn check_set_up_at(
    game: &Game,
    unit: UnitId,
    bases: &[Rect],
    moving: bool,
) -> Result<Vec<Rect>, RuleError> {
    let u = game.unit(unit);
    if moving && u.carries.is_some_and(|c| c.kind == PortableKind::Kobylica) {
        return Err(RuleError::new(
            "BFS-OBS-3",
            "Kobylicas are never set up during a move: it takes 2 Special Maneuvers.",
        ));
    }
    let Some(c) = u.carries else {
        return Err(RuleError::new(
            "BFS-OBS-3",
            format!("{} carries no portable obstacles.", u.name),
        ));
    };
    if u.morale != MoraleLevel::Good {
        return Err(RuleError::new(
            c.kind.rule(),
            format!("{} is not at Good Morale and cannot set them up.", u.name),
        ));
    }
    let spots = placements(game, unit, bases, &c);
    if spots.is_empty() {
        return Err(RuleError::new(
            c.kind.rule(),
            format!(
                "There is no room to set up {} in front of {}.",
                c.kind.name(),
                u.name
            ),
        ));
    }
    Ok(spots)
}

/// Sets up (or scatters) what the unit carries: the elements become terrain pieces; any that
/// found no room stay with the unit.
pub fn set_up(game: &mut Game, unit: UnitId, spots: &[Rect], events: &mut Vec<Event>) {
    let Some(c) = game.unit(unit).carries else {
        return;
    };
    let name = game.unit(unit).name.clone();
    for r in spots {
        game.terrain.push(TerrainPiece {
            kind: c.kind.terrain(),
            name: Some(format!("{} of {name}", c.kind.name())),
            polygons: vec![r.corners().to_vec()],
            owner: Some(unit),
        });
    }
    let left = c.elements.saturating_sub(spots.len() as u8);
    game.unit_mut(unit).carries = (left > 0).then_some(Carried {
        kind: c.kind,
        elements: left,
    });
    events.push(Event::Ruling {
        rule: c.kind.rule().into(),
        text: format!(
            "{name} sets up {} element(s) of {}{}",
            spots.len(),
            c.kind.name(),
            if left > 0 {
                format!("; {left} found no room and are still carried")
            } else {
                String::new()
            }
        ),
    });
}

/// Cavalry that touches or crosses caltrops tests Skill, once a phase: failed, it is
/// Disorganized, and a "0" costs it 1 SP too (BFS-OBS-7).
pub fn caltrops_test(game: &mut Game, unit: UnitId, after: &[Rect], events: &mut Vec<Event>) {
    let p = game.unit_profile(unit);
    if !matches!(p.kind, UnitKind::Cavalry | UnitKind::Dragoons)
        || game.unit(unit).flags.caltrops_tested
        || game.unit(unit).status != UnitStatus::OnTable
    {
        return;
    }
    let touching = (0..game.terrain.len())
        .filter(|&i| game.terrain[i].kind == TerrainKind::Caltrops)
        .any(|i| crate::obstacle::touches(game, after, i));
    if !touching {
        return;
    }
    game.unit_mut(unit).flags.caltrops_tested = true;
    let (_, face) = crate::skill::test_or_disorganized(
        game,
        unit,
        "BFS-OBS-7",
        "its horses met caltrops".into(),
        events,
    );
    let zero = face == Some(10);
    if zero {
        // Which base goes is chosen as for close combat (BFS-CBT-12).
        crate::losses::apply(
            game,
            unit,
            1,
            crate::losses::LossCause::CloseCombat,
            "a \"0\" on caltrops (BFS-OBS-7)",
            events,
        );
    }
}

/// Caltrops this close to an infantry unit can be cleared by it (BFS-OBS-6).
pub const CLEAR_CALTROPS_CM: f32 = 5.0;

/// What a unit clearing portable obstacles would do (BFS-OBS-6, BFS-OBS-11): the terrain pieces
/// it removes, whether it carries them away (its own chevaux), and the Special Maneuvers spent.
#[derive(Debug, Clone, PartialEq)]
pub struct Clearing {
    pub pieces: Vec<usize>,
    pub carry_away: bool,
    pub maneuvers: u8,
}

/// May `unit` clear portable obstacles now? Caltrops within 5 cm of infantry (2 Special
/// Maneuvers); else chevaux de frise it touches: its own it carries away, others it destroys
/// (1). None may have an enemy unit in contact.
pub fn check_clear(game: &Game, unit: UnitId) -> Result<Clearing, RuleError> {
    let u = game.unit(unit);
    let infantry = game.unit_profile(unit).kind == UnitKind::Infantry;
    let polygons = crate::geo::terrain_pieces(game);
    let near = |i: usize, reach: f32| {
        polygons.iter().filter(|p| p.id as usize == i).any(|p| {
            u.bases.iter().any(|b| {
                sandtable_geometry::distance::rect_polygon(b, &p.polygon).is_ok_and(|d| d <= reach)
            })
        })
    };
    let enemy_on = |i: usize| {
        game.units
            .iter()
            .filter(|o| o.side != u.side && o.status == UnitStatus::OnTable)
            .any(|o| crate::obstacle::touches(game, &o.bases, i))
    };
    let caltrops: Vec<usize> = (0..game.terrain.len())
        .filter(|&i| game.terrain[i].kind == TerrainKind::Caltrops)
        .filter(|&i| infantry && near(i, CLEAR_CALTROPS_CM))
        .collect();
    if !caltrops.is_empty() {
        if caltrops.iter().any(|&i| enemy_on(i)) {
            return Err(RuleError::new(
                "BFS-OBS-6",
                "An enemy unit is in contact with the caltrops: they cannot be cleared.",
            ));
        }
        return Ok(Clearing {
            pieces: caltrops,
            carry_away: false,
            maneuvers: 2,
        });
    }
    let chevaux: Vec<usize> = (0..game.terrain.len())
        .filter(|&i| game.terrain[i].kind == TerrainKind::ChevauxDeFrise)
        .filter(|&i| near(i, crate::obstacle::TOUCH_CM))
        .collect();
    if chevaux.is_empty() {
        return Err(RuleError::new(
            "BFS-OBS-11",
            format!(
                "{} has no caltrops within 5 cm{} and touches no chevaux de frise.",
                u.name,
                if infantry {
                    ""
                } else {
                    " (only infantry clears them)"
                }
            ),
        ));
    }
    if chevaux.iter().any(|&i| enemy_on(i)) {
        return Err(RuleError::new(
            "BFS-OBS-11",
            "An enemy unit is in contact with the chevaux de frise: they cannot be removed.",
        ));
    }
    let own = chevaux.iter().all(|&i| game.terrain[i].owner == Some(unit));
    Ok(Clearing {
        pieces: chevaux,
        carry_away: own,
        maneuvers: 1,
    })
}

/// Clears what [`check_clear`] found: the pieces leave the table, the unit's own chevaux go
/// back on its bases.
pub fn clear(game: &mut Game, unit: UnitId, c: &Clearing, events: &mut Vec<Event>) {
    let kind = c
        .pieces
        .first()
        .map(|&i| game.terrain[i].kind)
        .unwrap_or(TerrainKind::Caltrops);
    let mut pieces = c.pieces.clone();
    pieces.sort_unstable_by(|a, b| b.cmp(a));
    for &i in &pieces {
        game.terrain.remove(i);
    }
    let name = game.unit(unit).name.clone();
    let n = c.pieces.len() as u8;
    let (rule, text) = if kind == TerrainKind::Caltrops {
        (
            "BFS-OBS-6",
            format!("{name} clears {n} element(s) of caltrops"),
        )
    } else if c.carry_away {
        let u = game.unit_mut(unit);
        u.carries = Some(Carried {
            kind: PortableKind::ChevauxDeFrise,
            elements: u.carries.map_or(0, |c| c.elements) + n,
        });
        (
            "BFS-OBS-11",
            format!("{name} takes up its {n} chevaux de frise again"),
        )
    } else {
        (
            "BFS-OBS-11",
            format!("{name} destroys {n} chevaux de frise"),
        )
    };
    events.push(Event::Ruling {
        rule: rule.into(),
        text,
    });
}
