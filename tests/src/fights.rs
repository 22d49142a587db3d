//! The shipped fight files (`examples/<ruleset>/fight.yaml`) as the generated code's
//! fights: the same combatants, sides and names, built with the generated types, for the
//! whole-fight differential and the tests that step through fights. Each is checked
//! against its file by [`crate::differential::fight_differential`].

use crate::d20_armor_slots as d20;
use crate::kingsmark as km;
use crate::victory_stars as vs;
use rulesc_runtime::Fight;

/// `examples/kingsmark/fight.yaml`: Watch (Aldren, Tomas) against Brigands (Brigand,
/// Cutthroat).
pub fn kingsmark() -> Fight<km::Combatant> {
    use km::Skill::{ArmedCombat, CloakAndDagger};
    let skills = |points: &[(km::Skill, i64)]| {
        let mut s = [0; 9];
        for (skill, n) in points {
            s[*skill as usize] = *n;
        }
        s
    };
    let mut f = Fight::new();
    f.join(
        "Watch",
        "Aldren",
        km::Combatant {
            physical_performance: 1,
            reflexes: 1,
            skills: skills(&[(ArmedCombat, 2)]),
            ..Default::default()
        },
    );
    f.join(
        "Watch",
        "Tomas",
        km::Combatant {
            physical_performance: 1,
            reflexes: 2,
            speed: 1,
            skills: skills(&[(ArmedCombat, 1)]),
            ..Default::default()
        },
    );
    f.join(
        "Brigands",
        "Brigand",
        km::Combatant {
            physical_performance: 1,
            skills: skills(&[(ArmedCombat, 1)]),
            armor: vec![km::ArmorPiece::leather_jerkin()],
            ..Default::default()
        },
    );
    f.join(
        "Brigands",
        "Cutthroat",
        km::Combatant {
            reflexes: 2,
            speed: 2,
            skills: skills(&[(ArmedCombat, 1), (CloakAndDagger, 3)]),
            concealment: km::Concealment::SlightAdvantage,
            ..Default::default()
        },
    );
    f
}

fn d20_fighter(
    strength: i64,
    dexterity: i64,
    skills: [i64; 3],
    hp: i64,
    weapon: d20::Weapon,
    armor: Vec<d20::ArmorPiece>,
) -> d20::Combatant {
    d20::Combatant {
        abilities: [strength, dexterity],
        skills,
        hp,
        weapon,
        armor,
        shield: d20::ShieldKind::NoShield,
        shield_hp: 0,
        initiative: 0,
        tie_break: 0,
        conditions: Vec::new(),
        assist_bonus: 0,
        assistance_this_round: 0,
        gave_up_action: false,
    }
}

/// `examples/d20-armor-slots/fight.yaml`: Party (Knight, Duellist, Squire) against
/// Bandits (Chief, Cutthroat, Thug, Lookout): seven participants.
pub fn d20() -> Fight<d20::Combatant> {
    use d20::ArmorPiece as A;
    let mut f = Fight::new();
    let chain = vec![
        A::chain_coif(),
        A::chain_mantle(),
        A::chain_hauberk(),
        A::chain_gauntlets(),
        A::chain_leggings(),
    ];
    let leather = vec![
        A::leather_cap(),
        A::leather_pauldrons(),
        A::leather_jerkin(),
        A::leather_gloves(),
        A::leather_leggings(),
    ];
    f.join(
        "Party",
        "Knight",
        d20::Combatant {
            shield: d20::ShieldKind::Wooden,
            shield_hp: 10,
            ..d20_fighter(4, 0, [0, 0, 2], 24, d20::Weapon::longsword(), chain)
        },
    );
    f.join(
        "Party",
        "Duellist",
        d20_fighter(0, 6, [3, 0, 0], 18, d20::Weapon::rapier(), leather),
    );
    f.join(
        "Party",
        "Squire",
        d20_fighter(2, 0, [0; 3], 14, d20::Weapon::spear(), Vec::new()),
    );
    f.join(
        "Bandits",
        "Chief",
        d20_fighter(
            4,
            0,
            [0; 3],
            18,
            d20::Weapon::greatsword(),
            vec![A::leather_jerkin(), A::leather_leggings()],
        ),
    );
    f.join(
        "Bandits",
        "Cutthroat",
        d20_fighter(0, 4, [2, 0, 0], 12, d20::Weapon::dagger(), Vec::new()),
    );
    f.join(
        "Bandits",
        "Thug",
        d20_fighter(3, 0, [0; 3], 14, d20::Weapon::spear(), Vec::new()),
    );
    f.join(
        "Bandits",
        "Lookout",
        d20_fighter(0, 2, [0; 3], 10, d20::Weapon::dagger(), Vec::new()),
    );
    f
}

fn vs_fighter(
    strength: i64,
    melee: i64,
    dodge: i64,
    initiative: i64,
    held: Vec<vs::Item>,
    armour: Vec<vs::Armour>,
) -> vs::Combatant {
    use vs::Skill::{Dodge, Initiative, Melee};
    let mut skills = [0; 6];
    skills[Melee as usize] = melee;
    skills[Dodge as usize] = dodge;
    skills[Initiative as usize] = initiative;
    vs::Combatant {
        strength,
        skills,
        held,
        armour,
        ..Default::default()
    }
}

/// `examples/victory-stars/fight.yaml`: Garrison (Sergeant, a leader; Hal and Wat, men
/// at arms) against Warband (Chief, a leader; Raider, Cutter, Youth).
pub fn victory_stars() -> Fight<vs::Combatant> {
    use vs::Armour as A;
    use vs::Item::{Broadsword, Dagger, Mace, RoundShield};
    let mut f = Fight::new();
    f.join(
        "Garrison",
        "Sergeant",
        vs::Combatant {
            leader: true,
            ..vs_fighter(
                13,
                65,
                45,
                60,
                vec![Broadsword, RoundShield],
                vec![A::mail_hauberk(), A::kettle_helm()],
            )
        },
    );
    f.join("Garrison", "Hal", vs::Combatant::man_at_arms());
    f.join("Garrison", "Wat", vs::Combatant::man_at_arms());
    f.join(
        "Warband",
        "Chief",
        vs::Combatant {
            leader: true,
            ..vs_fighter(14, 60, 40, 55, vec![Broadsword], vec![A::padded_jack()])
        },
    );
    f.join(
        "Warband",
        "Raider",
        vs_fighter(12, 50, 40, 45, vec![Broadsword], vec![A::padded_jack()]),
    );
    f.join(
        "Warband",
        "Cutter",
        vs_fighter(11, 45, 50, 40, vec![Mace], Vec::new()),
    );
    f.join(
        "Warband",
        "Youth",
        vs_fighter(10, 35, 45, 30, vec![Dagger], Vec::new()),
    );
    f
}
