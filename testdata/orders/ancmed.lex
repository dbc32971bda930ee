# Ancient Mediterranean map (facts: /work/shared/reference/ancmed-map-facts.txt; abbreviations as the seed prints them).
# province <id> | <abbreviation as printed> | <full name> | <aliases, comma separated> | <coasts>
# power    <id> | <abbreviation> | <full name> | <aliases>
province adr | Adr | Adriatic Sea |  |
province aeg | Aeg | Aegean Sea |  |
province ale | Ale | Alexandria |  |
province ant | Ant | Antioch |  |
province apu | Apu | Apulia |  |
province ara | Ara | Arabia |  |
province arm | Arm | Armenia |  |
province ath | Ath | Athens |  |
province aus | Aus | Ausonian Sea |  |
province bal | Bal | Baleares |  |
province bay | Bay | Bayuda |  |
province ber | Ber | Berber Sea |  |
province bit | Bit | Bithynia |  |
province bla | Bla | Black Sea | Pontus Euxinus |
province byz | Byz | Byzantium |  |
province cap | Cap | Cappadocia |  |
province car | Car | Carthage | Carthago |
province che | Che | Chersonesus |  |
province cil | Cil | Cilician Strait |  |
province cir | Cir | Cirta |  |
province cor | Cor | Corsica |  |
province cre | Cre | Crete |  |
province cyp | Cyp | Cyprus |  |
province cyr | Cyr | Cyrene |  |
province dac | Dac | Dacia |  |
province dal | Dal | Dalmatia |  |
province dam | Dam | Damascus |  |
province egy | Egy | Egyptian Sea |  |
province epi | Epi | Epirus |  |
province etr | Etr | Etruria |  |
province gal | Gal | Galatia |  |
province gau | Gau | Gaul |  |
province gop | GoP | Gulf of Pelusium |  |
province gos | GoS | Gulf of Syrtis |  |
province got | GoT | Gulf of Tacape |  |
province ibe | Ibe | Iberian Sea |  |
province ill | Ill | Illyria |  |
province ion | Ion | Ionian Sea |  |
province isa | Isa | Isauria |  |
province jer | Jer | Jerusalem |  |
province lep | Lep | Leptis |  |
province lib | Lib | Libyan Sea |  |
province lig | Lig | Ligurian Sea |  |
province lus | Lus | Lusitania |  |
province mac | Mac | Macedonia |  |
province mar | Mar | Marmarica |  |
province mas | Mas | Massilia |  |
province mau | Mau | Mauretania |  |
province mem | Mem | Memphis |  |
province mes | Mes | Messenian Sea |  |
province mil | Mil | Miletus |  |
province min | Min | Minoan Sea |  |
province nab | Nab | Nabatea |  |
province nea | Nea | Neapolis |  |
province num | Num | Numidia |  |
province pet | Pet | Petra |  |
province pha | Pha | Phazania |  |
province pun | Pun | Punic Sea |  |
province rav | Rav | Ravenna |  |
province ree | Ree | Reed Sea | Red Sea, Mare Erithraerum |
province rha | Rha | Rhaetia |  |
province rom | Rom | Roma | Rome |
province sad | Sad | Sardinia |  |
province sag | Sag | Saguntum |  |
province sah | Sah | Sahara |  |
province sam | Sam | Sarmatia |  |
province sic | Sic | Sicilia |  |
province sid | Sid | Sidon |  |
province sii | Sii | Sinai |  |
province sip | Sip | Sinope |  |
province spa | Spa | Sparta |  |
province syr | Syr | Syrian Sea |  |
province tar | Tar | Tarraconensis |  |
province tha | Tha | Thapsus |  |
province the | The | Thebes | Thb |
province tye | Tye | Tyre |  |
province tyn | Tyn | Tyrrhenean Sea | Tyrrhenian Sea, Tys |
province ven | Ven | Venetia |  |
province vin | Vin | Vindobona |  |
power rome | | Rome |
power carthage | | Carthage |
power greece | | Greece |
power persia | | Persia |
power egypt | | Egypt |
