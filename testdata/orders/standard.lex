# Standard Diplomacy map: the names a player may write, for the orders tests.
# province <id> | <abbreviation as printed> | <full name> | <aliases, comma separated> | <coasts>
# power    <id> | <abbreviation> | <full name> | <aliases>
province adr | Adr | Adriatic Sea | |
province aeg | Aeg | Aegean Sea | |
province alb | Alb | Albania | |
province ank | Ank | Ankara | |
province apu | Apu | Apulia | |
province arm | Arm | Armenia | |
province bal | Bal | Baltic Sea | |
province bar | Bar | Barents Sea | |
province bel | Bel | Belgium | |
province ber | Ber | Berlin | |
province bla | Bla | Black Sea | |
province boh | Boh | Bohemia | |
province bot | Bot | Gulf of Bothnia | GoB |
province bre | Bre | Brest | |
province bud | Bud | Budapest | |
province bul | Bul | Bulgaria | | ec sc
province bur | Bur | Burgundy | |
province cly | Cly | Clyde | |
province con | Con | Constantinople | |
province den | Den | Denmark | |
province eas | Eas | Eastern Mediterranean | Eastern Med, EMed |
province edi | Edi | Edinburgh | |
province eng | Eng | English Channel | |
province fin | Fin | Finland | |
province gal | Gal | Galicia | |
province gas | Gas | Gascony | |
province gre | Gre | Greece | |
province hel | Hel | Heligoland Bight | Helgoland Bight |
province hol | Hol | Holland | |
province ion | Ion | Ionian Sea | |
province iri | Iri | Irish Sea | |
province kie | Kie | Kiel | |
province lon | Lon | London | |
province lvn | Lvn | Livonia | |
province lvp | Lvp | Liverpool | |
province lyo | Lyo | Gulf of Lyon | Gulf of Lions, GoL |
province mao | Mao | Mid-Atlantic Ocean | Mid Atlantic |
province mar | Mar | Marseilles | Marseille |
province mos | Mos | Moscow | |
province mun | Mun | Munich | |
province naf | Naf | North Africa | |
province nao | Nao | North Atlantic Ocean | |
province nap | Nap | Naples | |
province nth | Nth | North Sea | |
province nwg | Nwg | Norwegian Sea | Nrg |
province nwy | Nwy | Norway | |
province par | Par | Paris | |
province pic | Pic | Picardy | |
province pie | Pie | Piedmont | |
province por | Por | Portugal | |
province pru | Pru | Prussia | |
province rom | Rom | Rome | |
province ruh | Ruh | Ruhr | |
province rum | Rum | Rumania | Romania |
province ser | Ser | Serbia | |
province sev | Sev | Sevastopol | |
province sil | Sil | Silesia | |
province ska | Ska | Skagerrak | |
province smy | Smy | Smyrna | |
province spa | Spa | Spain | | nc sc
province stp | StP | St Petersburg | Saint Petersburg | nc sc
province swe | Swe | Sweden | |
province syr | Syr | Syria | |
province tri | Tri | Trieste | |
province tun | Tun | Tunis | |
province tus | Tus | Tuscany | |
province tyr | Tyr | Tyrolia | Tyrol |
province tys | Tys | Tyrrhenian Sea | Tyn |
province ukr | Ukr | Ukraine | |
province ven | Ven | Venice | |
province vie | Vie | Vienna | |
province wal | Wal | Wales | |
province war | War | Warsaw | |
province wes | Wes | Western Mediterranean | Western Med, WMed |
province yor | Yor | Yorkshire | York |
power austria | Aus | Austria | Austria-Hungary
power england | Eng | England |
power france | Fra | France |
power germany | Ger | Germany |
power italy | Ita | Italy |
power russia | Rus | Russia |
power turkey | Tur | Turkey |
