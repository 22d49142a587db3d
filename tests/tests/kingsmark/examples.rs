//! K1x, K4x: the worked examples of initiative, and of initiative changing during combat.

use super::*;

// ---------------------------------------------------------------------------------------
// K1x "Example — Calculating Initiative": Mira 6 + 1 + 1 = 8 with 6 AP; Joseph
// 10 + 2 + 2 = 14 with 7 AP; Speed -2 gives 3 AP, Speed 0 the standard 5.

fn k1x_story<B: Backend>(b: &B) {
    let who = B::NAME;
    let mut mira = b.combatant(&combatant(1, 1));
    assert_eq!(
        b.roll_initiative(&mut mira, &[6]),
        8,
        "{who}: Mira 6 + 1 + 1"
    );
    assert_eq!(b.initiative(&mira), 8, "{who}");
    assert_eq!(b.action_points(&mira), 6, "{who}: Mira's Speed +1");
    let mut joseph = b.combatant(&combatant(2, 2));
    assert_eq!(
        b.roll_initiative(&mut joseph, &[10]),
        14,
        "{who}: Joseph 10 + 2 + 2"
    );
    assert_eq!(b.action_points(&joseph), 7, "{who}: Joseph's Speed +2");
    // "Joseph therefore acts before Mira."
    let mut order = TurnOrder::new(vec![b.key(&mira), b.key(&joseph)]);
    assert_eq!(rest_of_round(&mut order), [vec![1], vec![0]], "{who}");
    // "A character with Speed -2 receives only 3 Action Points ... Speed 0 ... 5."
    assert_eq!(b.action_points(&b.combatant(&combatant(0, -2))), 3, "{who}");
    assert_eq!(b.action_points(&b.combatant(&combatant(0, 0))), 5, "{who}");
}

#[test]
fn k1x_mira_8_with_6_ap_and_joseph_14_with_7_ap_in_the_generated_code() {
    k1x_story(&Generated);
}

#[test]
fn k1x_mira_8_with_6_ap_and_joseph_14_with_7_ap_in_the_interpreter() {
    k1x_story(&Interpreted);
}

#[test]
fn k1x_the_scenarios_replay_with_the_generated_trace() {
    // `examples/kingsmark/{mira,joseph}_initiative.yaml` run by the interpreter print the
    // very trace the generated code gives for the same faces.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kingsmark");
    let p = program();
    for (file, reflexes, speed, face, score) in [
        ("mira_initiative.yaml", 1, 1, 6, 8),
        ("joseph_initiative.yaml", 2, 2, 10, 14),
    ] {
        let text = rulesc::scenario::run_file(&p, &root.join(file), 0)
            .unwrap_or_else(|(d, _)| panic!("{file}: {:?}", d.items));
        let mut c = combatant(reflexes, speed);
        let run = roll_initiative(&mut c, &[face]);
        assert_eq!(run.result, score);
        assert_eq!(text, format!("{}result: {score}\n", run.text()), "{file}");
    }
}

// ---------------------------------------------------------------------------------------
// K4x "Example — Initiative Changes During Combat" and Johan's example.
// assumption (NOTES.md 1): the seed gives no Pain per box; a Moderate box gives +2 (Johan's
// "+2 Pain") and a Severe box +3 (Mira's "+3 Pain Modifier"). The wounds are dealt by real
// melee attacks with scripted dice.

/// An attacker with +3 (Physical Performance 1, Armed Combat 2) and a sword.
fn bravo<B: Backend>(b: &B) -> B::C {
    b.combatant(&km::Combatant {
        physical_performance: 1,
        skills: skills(&[(km::Skill::ArmedCombat, 2)]),
        ..Default::default()
    })
}

/// 7 + 3 = 10 against the defender's bare 9: margin 1, Moderate, Upper Torso, box 7.
fn johans_wound<B: Backend>(b: &B, attacker: &B::C, johan: &mut B::C) {
    let (result, _) = b.melee(
        attacker,
        johan,
        &sword(),
        &[7, 9, 10],
        &[DEFEND_ARMED, ORDINARY_STRIKE],
    );
    assert_eq!(
        result,
        "Hit(level: Moderate, location: Upper Torso, box: 7)",
        "{}",
        B::NAME
    );
}

/// 8 + 3 = 11 against the defender's bare 9: margin 2, Severe, Upper Torso, box 10.
fn miras_wound<B: Backend>(b: &B, attacker: &B::C, mira: &mut B::C) {
    let (result, _) = b.melee(
        attacker,
        mira,
        &sword(),
        &[8, 9, 10],
        &[DEFEND_ARMED, ORDINARY_STRIKE],
    );
    assert_eq!(
        result,
        "Hit(level: Severe, location: Upper Torso, box: 10)",
        "{}",
        B::NAME
    );
}

fn k4x_johan<B: Backend>(b: &B) {
    let who = B::NAME;
    const ENEMY: usize = 0;
    const JOHAN: usize = 1;
    const OTHER: usize = 2;
    let scene = |b: &B| {
        let mut enemy = bravo(b);
        assert_eq!(b.roll_initiative(&mut enemy, &[11]), 11, "{who}");
        let mut johan = b.combatant(&combatant(1, 1));
        assert_eq!(b.roll_initiative(&mut johan, &[7]), 9, "{who}: Johan 9");
        let mut other = bravo(b);
        assert_eq!(b.roll_initiative(&mut other, &[8]), 8, "{who}");
        let order = TurnOrder::new(vec![b.key(&enemy), b.key(&johan), b.key(&other)]);
        (enemy, johan, other, order)
    };

    // "An enemy acting on Initiative 11 wounds him and gives him +2 Pain, reducing Johan
    // to Initiative 7. Another character on Initiative 8 now acts before Johan. Johan
    // still receives his Turn on Initiative 7."
    let (enemy, mut johan, _other, mut order) = scene(b);
    assert_eq!(order.next_turn(), Some(vec![ENEMY]), "{who}");
    johans_wound(b, &enemy, &mut johan);
    assert_eq!(b.pain(&johan), 2, "{who}: +2 Pain");
    assert_eq!(b.initiative(&johan), 7, "{who}: 9 -> 7");
    order.set_key(JOHAN, b.key(&johan));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![OTHER], vec![JOHAN]],
        "{who}: the 8 acts before Johan's 7, and Johan still acts"
    );

    // "If Johan had already acted before receiving the wound, he would not act again
    // during that Round. He would begin the next Round at Initiative 7."
    let (_enemy, mut johan, other, mut order) = scene(b);
    assert_eq!(order.next_turn(), Some(vec![ENEMY]), "{who}");
    assert_eq!(
        order.next_turn(),
        Some(vec![JOHAN]),
        "{who}: Johan acts at 9"
    );
    johans_wound(b, &other, &mut johan);
    assert_eq!(b.initiative(&johan), 7, "{who}");
    order.set_key(JOHAN, b.key(&johan));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![OTHER]],
        "{who}: no second turn"
    );
    order.start_round();
    assert_eq!(
        rest_of_round(&mut order),
        [vec![ENEMY], vec![OTHER], vec![JOHAN]],
        "{who}: next Round at Initiative 7"
    );
}

fn k4x_mira_tomas_brakka<B: Backend>(b: &B) {
    let who = B::NAME;
    const MIRA: usize = 0;
    const TOMAS: usize = 1;
    const BRAKKA: usize = 2;
    let scene = |b: &B| {
        let mut mira = b.combatant(&combatant(1, 1));
        assert_eq!(b.roll_initiative(&mut mira, &[8]), 10, "{who}: Mira 10");
        let mut tomas = b.combatant(&combatant(1, 0));
        assert_eq!(b.roll_initiative(&mut tomas, &[7]), 8, "{who}: Tomas 8");
        let mut brakka = b.combatant(&combatant(0, 0));
        assert_eq!(b.roll_initiative(&mut brakka, &[6]), 6, "{who}: Brakka 6");
        let order = TurnOrder::new(vec![b.key(&mira), b.key(&tomas), b.key(&brakka)]);
        (mira, order)
    };
    let attacker = bravo(b);

    // "The Turn Order is therefore Mira, Tomas, and Brakka." Then, "before Mira acts
    // during a later Round, an interrupting attack fills one of her Physical Wound boxes
    // and gives her a +3 Pain Modifier. Her Initiative immediately falls from 10 to 7. The
    // Turn Order becomes Tomas at 8, Mira at 7, and Brakka at 6."
    let (mut mira, mut order) = scene(b);
    assert_eq!(
        rest_of_round(&mut order),
        [vec![MIRA], vec![TOMAS], vec![BRAKKA]],
        "{who}"
    );
    order.start_round();
    miras_wound(b, &attacker, &mut mira);
    assert_eq!(b.pain(&mira), 3, "{who}: +3 Pain");
    assert_eq!(b.initiative(&mira), 7, "{who}: 10 -> 7");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![TOMAS], vec![MIRA], vec![BRAKKA]],
        "{who}: she waits until Initiative 7"
    );

    // "During a different Round, suppose Mira acts at Initiative 10 and then receives the
    // same wound later in that Round. Her Initiative still falls to 7 immediately, but she
    // does not receive another Turn when Initiative 7 is reached. Her new position applies
    // normally during the following Round."
    let (mut mira, mut order) = scene(b);
    assert_eq!(
        order.next_turn(),
        Some(vec![MIRA]),
        "{who}: Mira acts at 10"
    );
    assert_eq!(order.next_turn(), Some(vec![TOMAS]), "{who}");
    miras_wound(b, &attacker, &mut mira);
    assert_eq!(b.initiative(&mira), 7, "{who}");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![BRAKKA]],
        "{who}: no turn at 7"
    );
    order.start_round();
    assert_eq!(order.next_turn(), Some(vec![TOMAS]), "{who}");
    assert_eq!(order.next_turn(), Some(vec![MIRA]), "{who}: Mira at 7");

    // "Later, a healer gives Mira 2 points of Pain Relief. Her effective Pain Modifier
    // falls from +3 to +1, so her Initiative rises from 7 to 9. If Mira has already acted
    // during that Round, she does not act again. Beginning with the following Round, she
    // acts at Initiative 9."
    b.set_pain_relief(&mut mira, 2);
    assert_eq!(b.pain(&mira), 1, "{who}: +3 -> +1");
    assert_eq!(b.initiative(&mira), 9, "{who}: 7 -> 9");
    order.set_key(MIRA, b.key(&mira));
    assert_eq!(
        rest_of_round(&mut order),
        [vec![BRAKKA]],
        "{who}: no second turn"
    );
    for _ in 0..2 {
        order.start_round();
        assert_eq!(
            rest_of_round(&mut order),
            [vec![MIRA], vec![TOMAS], vec![BRAKKA]],
            "{who}: Mira at 9, ahead of Tomas's 8, while the relief lasts"
        );
    }
}

#[test]
fn k4x_johan_9_takes_2_pain_and_acts_at_7_after_the_8_in_the_generated_code() {
    k4x_johan(&Generated);
}

#[test]
fn k4x_johan_9_takes_2_pain_and_acts_at_7_after_the_8_in_the_interpreter() {
    k4x_johan(&Interpreted);
}

#[test]
fn k4x_mira_tomas_brakka_reorder_and_pain_relief_in_the_generated_code() {
    k4x_mira_tomas_brakka(&Generated);
}

#[test]
fn k4x_mira_tomas_brakka_reorder_and_pain_relief_in_the_interpreter() {
    k4x_mira_tomas_brakka(&Interpreted);
}
