// Renders the placeholder hero picture (a drawing made for this project, free
// to use) from scripts/assets/hero.svg. A family replaces public/images/hero.jpg
// with their own photo instead of running this.
import sharp from "sharp";

const source = new URL("./assets/hero.svg", import.meta.url);
await sharp(source.pathname, { density: 72 })
  .resize(1600, 1000)
  .jpeg({ quality: 78, progressive: true, mozjpeg: true })
  .toFile("public/images/hero.jpg");
console.log("wrote public/images/hero.jpg");
