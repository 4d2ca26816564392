//! Links shared before a change to the link code keep opening: each link
//! below was made by an earlier raftlab (the hand-written base64url and
//! CRC-32 it had until the crates took over) and is stored here as it was
//! sent. Each must still open to the same script at the same moment, and a
//! link made now from that run must be the same string.

use raftlab::session::share::{decode_link, encode_link, link_text};

struct Golden {
    link: &'static str,
    text: &'static str,
    at_ms: u64,
}

const GOLDEN: &[Golden] = &[
    // A short run, looked at mid-way.
    Golden {
        link: "#v1.HTE1MDADCgwxLDIsMw00ARAJYSBiAjFzDjECMnMKf0ofrg",
        text: "# at: 1500ms\ncluster voters=1,2,3 seed=4\nwait-until leader\nput a b\nwait 1s\n\
               crash 1\nwait 2s\n",
        at_ms: 1500,
    },
    // A run made the way the browser makes one: commands typed at the live
    // edge with time let pass between them; a learner added and promoted.
    Golden {
        link: "#v1.HTIzNTY2AwoMMSwyLDMNMTECMTIwMAMBEAlncmVldGluZyBoZWxsbwIyMzQ1AwQ0BwI4MDADDzQCMzEwMA\
               MBEjQRMTBzBTQCMTUwMAMTMjAvcwIyNzUwAw4xAjQzMjEDC2dyZWV0aW5nFjIgMwIxOTk5AxUJayB2IG5vd2Fp\
               dAI2NTADFAIycw8xGTECMzMzMwMKbWVtYmVyIGxpc3QbAjFzCp6-gbM",
        text: "# at: 23566ms\ncluster voters=1,2,3 seed=11\nwait 1200ms\nwait-until leader\n\
               put greeting hello\nwait 2345ms\nmember add 4 --learner\nwait 800ms\nstart 4\n\
               wait 3100ms\nwait-until caught-up=4 within=10s\nmember promote 4\nwait 1500ms\n\
               load rate=20/s\nwait 2750ms\ncrash 1\nwait 4321ms\nget greeting\ncut 2 3\n\
               wait 1999ms\nheal\nput k v nowait\nwait 650ms\nload stop\nwait 2s\nstart 1\n\
               transfer-leader 1\nwait 3333ms\nmember list\nstatus\nwait 1s\n",
        at_ms: 23566,
    },
    // Text outside the packing dictionary: multi-byte UTF-8 and quotes.
    Golden {
        link: "#v1.HTIzNjcDCgwxDTkBEAljbMOpICJow6kgbGxvIgI3MDADChR3rvY",
        text: "# at: 2367ms\ncluster voters=1 seed=9\nwait-until leader\nput clé \"hé llo\"\n\
               wait 700ms\n",
        at_ms: 2367,
    },
];

#[test]
fn links_made_by_earlier_versions_still_open_to_the_same_run() {
    for g in GOLDEN {
        assert_eq!(link_text(g.link).unwrap(), g.text, "{}", g.link);
        let t = decode_link(g.link).unwrap_or_else(|e| panic!("{}: {e}", g.link));
        // The replayed history is the link's script (its text without the
        // moment line), and the moment is restored (clamped to the run's end
        // should the engine's timing ever move it).
        let script = g.text.split_once('\n').unwrap().1;
        assert_eq!(t.script(), script, "{}", g.link);
        assert_eq!(t.now(), g.at_ms.min(t.end()), "{}", g.link);
        // Shared again, the same run at the same moment is the same link.
        if t.now() == g.at_ms {
            assert_eq!(encode_link(&t), g.link);
        }
    }
}

#[test]
fn a_whole_url_around_an_old_link_opens_too() {
    let g = &GOLDEN[0];
    let url = format!("http://127.0.0.1:8000/{}", g.link);
    assert_eq!(link_text(&url).unwrap(), g.text);
}
