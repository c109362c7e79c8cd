import ar from "./ar.json";
import de from "./de.json";
import en from "./en.json";
import es from "./es.json";
import fr from "./fr.json";
import pl from "./pl.json";
import pt from "./pt.json";
import zh from "./zh.json";

export default { en, es, fr, de, pt, pl, zh, ar };
