//! Two sides played to the end through turn files, each from its own knowledge: what
//! `sandtable-cli simulate --pbem` writes and what the tests drive.

use crate::digest::Entropy;
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::peer::Peer;
use sandtable_engine::{Ruleset, Seat};

/// Chooses a command for a seat from that seat's view.
pub type Chooser<'a, R> =
    &'a mut dyn FnMut(&<R as Ruleset>::State, Seat) -> Option<<R as Ruleset>::Command>;

/// Most files a battle may take before the driver gives up (a battle takes a few hundred).
pub const MAX_FILES: usize = 20_000;

/// Plays `setup` between `choosers[0]` (seat 0, who starts) and `choosers[1]`, handing every
/// file to `sent` (index, writer, bytes) as it is written. Returns both sides at the end.
pub fn play_out<R: Ruleset>(
    setup: R::Setup,
    identities: [Identity; 2],
    entropy: [Entropy; 2],
    choosers: [Chooser<'_, R>; 2],
    mut sent: impl FnMut(usize, Seat, &[u8]),
) -> Result<[Peer<R>; 2], RemoteError> {
    let [c0, c1] = choosers;
    let choosers = [c0, c1];
    let [id0, id1] = identities;
    let [e0, e1] = entropy;
    let opponent = id1.public_hex();
    let (p0, start) = Peer::<R>::start(id0, 0, setup, &opponent, e0)?;
    sent(0, 0, &start);
    let (p1, accept) = Peer::<R>::accept(id1, "turn file #0", &start, e1)?;
    sent(1, 1, &accept);
    let mut peers = [p0, p1];
    let mut file = accept;
    let mut index = 1;
    let mut writer: usize = 0;
    loop {
        let name = format!("turn file #{index}");
        peers[writer].receive(&name, &file)?;
        let peer = &mut peers[writer];
        while peer.to_play() {
            let view = peer.view().expect("the battle has begun");
            let cmd = (choosers[writer])(&view, peer.seat()).ok_or_else(|| {
                RemoteError::new(&name, format!("seat {writer} found nothing to play"))
            })?;
            peer.play(cmd)
                .map_err(|e| RemoteError::new(&name, format!("seat {writer}: {e}")))?;
        }
        if !peer.to_write() {
            break;
        }
        index += 1;
        file = peer.write()?;
        sent(index, writer as Seat, &file);
        if index > MAX_FILES {
            return Err(RemoteError::new(&name, "the battle did not end"));
        }
        writer = 1 - writer;
    }
    Ok(peers)
}
