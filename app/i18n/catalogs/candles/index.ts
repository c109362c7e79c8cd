import ar from "./ar.json" with { type: "json" };
import de from "./de.json" with { type: "json" };
import en from "./en.json" with { type: "json" };
import es from "./es.json" with { type: "json" };
import fr from "./fr.json" with { type: "json" };
import pl from "./pl.json" with { type: "json" };
import pt from "./pt.json" with { type: "json" };
import zh from "./zh.json" with { type: "json" };

export default { en, es, fr, de, pt, pl, zh, ar };
