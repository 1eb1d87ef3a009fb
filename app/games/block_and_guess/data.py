"""Block and Guess content (RULES.md §6, **Ruling**: the project designs its own pieces and words).

- ``BLOCKS``: the 15 block types, our own 2D side-view shapes. Each is a union of convex
  parts given in board units inside its bounding box (x right, y up, origin bottom-left, as
  it lies at angle 0); the geometry module centres them. Colours are five, three blocks each.
- ``CLUE_CARDS``: 36 cards of 7 objects, each object a (Spanish, English) pair. They live
  here with the other card data rather than in the interface catalogues: they are game
  content the engine deals (like the block shapes), a card is shown in the viewer's language
  by the client from the pair the view carries, and tests can check all 252 in one place.
- ``CONSTRUCTION_CARDS``: the 11 construction cards, numbered as RULES.md lists them.
- ``NUMBERS``: the 7 number cards of each team's deck.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class BlockType:
    id: int
    key: str  # catalogue key suffix: block-and-guess.block.<key>
    colour: str  # catalogue key suffix: block-and-guess.colour.<colour>
    parts: tuple[tuple[Point, ...], ...]  # convex polygons, counter-clockwise


def _rect(w: float, h: float, x: float = 0, y: float = 0) -> tuple[Point, ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _disc(r: float, sides: int = 16) -> tuple[Point, ...]:
    # rotated by half a step so that a flat side lies at the bottom
    pts = [(r + r * math.cos(a), r + r * math.sin(a))
           for a in (-math.pi / 2 + math.pi / sides + 2 * math.pi * k / sides
                     for k in range(sides))]
    low = min(y for _, y in pts)
    return tuple((round(x, 3), round(y - low, 3)) for x, y in pts)


def _half_disc(r: float, steps: int = 8) -> tuple[Point, ...]:
    pts = [(r + r * math.cos(math.pi * k / steps), r * math.sin(math.pi * k / steps))
           for k in range(steps + 1)]
    return tuple((round(x, 3), round(y, 3)) for x, y in pts)


COLOURS = ("natural", "red", "blue", "yellow", "green")

BLOCKS: tuple[BlockType, ...] = (
    BlockType(0, "long_plank", "natural", (_rect(120, 20),)),
    BlockType(1, "long_plank", "red", (_rect(120, 20),)),
    BlockType(2, "short_plank", "blue", (_rect(60, 20),)),
    BlockType(3, "short_plank", "yellow", (_rect(60, 20),)),
    BlockType(4, "cube", "red", (_rect(40, 40),)),
    BlockType(5, "cube", "green", (_rect(40, 40),)),
    BlockType(6, "triangle", "yellow", (((0, 0), (60, 0), (30, 50)),)),
    BlockType(7, "wedge", "blue", (((0, 0), (40, 0), (0, 40)),)),
    # the arch: two legs and a lintel, a 40 x 20 opening underneath
    BlockType(8, "arch", "green", (_rect(20, 20), _rect(20, 20, 60, 0), _rect(80, 20, 0, 20))),
    BlockType(9, "half_disc", "red", (_half_disc(30),)),
    BlockType(10, "disc", "yellow", (_disc(20),)),
    BlockType(11, "cylinder", "blue", (_rect(30, 60),)),
    BlockType(12, "column", "natural", (_rect(20, 80),)),
    BlockType(13, "trapezoid", "green", (((0, 0), (70, 0), (55, 30), (15, 30)),)),
    BlockType(14, "ramp", "natural", (((0, 0), (60, 0), (60, 30)),)),
)

# Construction cards (RULES.md numbering). Kinds: "checked" rules the server enforces on a
# build, "draft" changes to the block draft, "mode" changes to the builder's board.
CONSTRUCTION_CARDS: dict[int, str] = {
    1: "checked",  # all blocks touch the ground; no stacking
    2: "checked",  # no block may touch another
    3: "mode",  # one eye covered: the builder sees half of the board
    4: "mode",  # no thumbs: blocks cannot be rotated (the server refuses rotations)
    5: "checked",  # blocks of different colours may not touch
    6: "draft",  # each builder chooses their own first block
    7: "checked",  # at most one block touches the ground; the others stacked
    8: "checked",  # blocks of the same colour must touch
    9: "draft",  # each builder receives two blocks instead of three
    10: "mode",  # other hand: mirrored controls
    11: "mode",  # eyes closed: the builder's own board is hidden
}
BOARD_MODES = {3: "half", 4: "no_rotation", 10: "mirrored", 11: "hidden"}

NUMBERS = tuple(range(1, 8))  # the number cards of one team

CLUE_CARDS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("trompeta", "trumpet"), ("fuente", "fountain"), ("silla", "chair"), ("cohete", "rocket"),
     ("pato", "duck"), ("castillo", "castle"), ("paraguas", "umbrella")),
    (("casa", "house"), ("barco", "boat"), ("árbol", "tree"), ("coche", "car"),
     ("puente", "bridge"), ("flor", "flower"), ("pez", "fish")),
    (("tren", "train"), ("avión", "aeroplane"), ("perro", "dog"), ("mesa", "table"),
     ("lámpara", "lamp"), ("montaña", "mountain"), ("sombrero", "hat")),
    (("gato", "cat"), ("faro", "lighthouse"), ("cama", "bed"), ("molino", "windmill"),
     ("tortuga", "tortoise"), ("guitarra", "guitar"), ("iglesia", "church")),
    (("robot", "robot"), ("jirafa", "giraffe"), ("piano", "piano"), ("tienda de campaña", "tent"),
     ("escalera", "ladder"), ("caracol", "snail"), ("grúa", "crane")),
    (("elefante", "elephant"), ("martillo", "hammer"), ("pirámide", "pyramid"),
     ("bicicleta", "bicycle"), ("ballena", "whale"), ("corona", "crown"), ("sofá", "sofa")),
    (("camello", "camel"), ("tractor", "tractor"), ("taza", "cup"), ("volcán", "volcano"),
     ("helicóptero", "helicopter"), ("caballo", "horse"), ("buzón", "letterbox")),
    (("dinosaurio", "dinosaur"), ("submarino", "submarine"), ("tenedor", "fork"),
     ("torre", "tower"), ("conejo", "rabbit"), ("columpio", "swing"),
     ("nave espacial", "spaceship")),
    (("cocodrilo", "crocodile"), ("farola", "street lamp"),
     ("mesa de ping-pong", "ping-pong table"), ("camión", "lorry"), ("pingüino", "penguin"),
     ("reloj", "clock"), ("tobogán", "slide")),
    (("seta", "mushroom"), ("velero", "sailing boat"), ("perchero", "coat stand"),
     ("autobús", "bus"), ("cisne", "swan"), ("estrella", "star"),
     ("arco de triunfo", "triumphal arch")),
    (("caracola", "seashell"), ("excavadora", "digger"), ("sartén", "frying pan"), ("búho", "owl"),
     ("portería", "goal"), ("iglú", "igloo"), ("cañón", "cannon")),
    (("tiburón", "shark"), ("banco", "bench"), ("tetera", "teapot"), ("canoa", "canoe"),
     ("pájaro", "bird"), ("pozo", "well"), ("semáforo", "traffic light")),
    (("rinoceronte", "rhinoceros"), ("ordenador", "computer"), ("tijeras", "scissors"),
     ("noria", "Ferris wheel"), ("serpiente", "snake"), ("estantería", "bookcase"),
     ("globo", "balloon")),
    (("camaleón", "chameleon"), ("carretilla", "wheelbarrow"), ("llave", "key"),
     ("tanque", "tank"), ("oso", "bear"), ("arpa", "harp"), ("chimenea", "fireplace")),
    (("vaca", "cow"), ("patinete", "scooter"), ("bañera", "bathtub"), ("catapulta", "catapult"),
     ("loro", "parrot"), ("rascacielos", "skyscraper"), ("zapato", "shoe")),
    (("cangrejo", "crab"), ("motocicleta", "motorbike"), ("lavadora", "washing machine"),
     ("templo", "temple"), ("ardilla", "squirrel"), ("sacapuntas", "pencil sharpener"),
     ("ancla", "anchor")),
    (("hipopótamo", "hippopotamus"), ("cuna", "cradle"), ("tambor", "drum"),
     ("telescopio", "telescope"), ("abeja", "bee"), ("tienda", "shop"),
     ("paracaídas", "parachute")),
    (("león", "lion"), ("trineo", "sledge"), ("cafetera", "coffee pot"), ("dragón", "dragon"),
     ("buque", "ship"), ("mesita de noche", "bedside table"), ("palmera", "palm tree")),
    (("oveja", "sheep"), ("tirachinas", "slingshot"), ("taburete", "stool"), ("ola", "wave"),
     ("zepelín", "airship"), ("cerdo", "pig"), ("pagoda", "pagoda")),
    (("ratón", "mouse"), ("hacha", "axe"), ("cochecito", "pram"), ("pulpo", "octopus"),
     ("escenario", "stage"), ("reno", "reindeer"), ("embudo", "funnel")),
    (("canguro", "kangaroo"), ("yate", "yacht"), ("copa", "goblet"), ("muralla", "wall"),
     ("gallina", "hen"), ("balanza", "scales"), ("tiovivo", "merry-go-round")),
    (("flamenco", "flamingo"), ("furgoneta", "van"), ("cuchara", "spoon"),
     ("acueducto", "aqueduct"), ("mariposa", "butterfly"), ("armario", "wardrobe"),
     ("cactus", "cactus")),
    (("ciervo", "deer"), ("tabla de surf", "surfboard"), ("vela", "candle"),
     ("estadio", "stadium"), ("foca", "seal"), ("carro", "cart"), ("trofeo", "trophy")),
    (("lobo", "wolf"), ("ambulancia", "ambulance"), ("escoba", "broom"), ("pirata", "pirate"),
     ("nube", "cloud"), ("balancín", "seesaw"), ("micrófono", "microphone")),
    (("koala", "koala"), ("locomotora", "locomotive"), ("gafas", "glasses"), ("isla", "island"),
     ("araña", "spider"), ("nevera", "fridge"), ("casita del perro", "kennel")),
    (("gorila", "gorilla"), ("kayak", "kayak"), ("sierra", "saw"), ("cabaña", "hut"),
     ("pájaro carpintero", "woodpecker"), ("escritorio", "desk"), ("hélice", "propeller")),
    (("zorro", "fox"), ("bote de remos", "rowing boat"), ("regadera", "watering can"),
     ("túnel", "tunnel"), ("murciélago", "bat"), ("percha", "hanger"), ("ovni", "UFO")),
    (("panda", "panda"), ("camión de bomberos", "fire engine"), ("jarrón", "vase"),
     ("faraón", "pharaoh"), ("gaviota", "seagull"), ("atril", "music stand"), ("tronco", "log")),
    (("erizo", "hedgehog"), ("monopatín", "skateboard"), ("bota", "boot"),
     ("observatorio", "observatory"), ("delfín", "dolphin"), ("hamaca", "hammock"),
     ("lupa", "magnifying glass")),
    (("burro", "donkey"), ("barca de vela", "dinghy"), ("tenedor de jardín", "garden fork"),
     ("rampa", "ramp"), ("búfalo", "buffalo"), ("mecedora", "rocking chair"),
     ("antena", "aerial")),
    (("llama", "llama"), ("caravana", "caravan"), ("plancha", "iron"), ("presa", "dam"),
     ("gusano", "worm"), ("litera", "bunk bed"), ("brújula", "compass")),
    (("avestruz", "ostrich"), ("coche de carreras", "racing car"), ("botella", "bottle"),
     ("castillo de arena", "sandcastle"), ("medusa", "jellyfish"),
     ("columpio doble", "double swing"), ("bombilla", "light bulb")),
    (("mapache", "raccoon"), ("globo aerostático", "hot-air balloon"), ("cubo", "bucket"),
     ("fortaleza", "fortress"), ("libélula", "dragonfly"), ("trampolín", "trampoline"),
     ("yunque", "anvil")),
    (("tucán", "toucan"), ("barco pirata", "pirate ship"), ("cazo", "saucepan"),
     ("obelisco", "obelisk"), ("escarabajo", "beetle"), ("cómoda", "chest of drawers"),
     ("martillo neumático", "pneumatic drill")),
    (("pavo real", "peacock"), ("dirigible", "blimp"), ("pala", "shovel"), ("ermita", "chapel"),
     ("estrella de mar", "starfish"), ("mostrador", "counter"), ("radio", "radio")),
    (("morsa", "walrus"), ("tranvía", "tram"), ("rastrillo", "rake"),
     ("castillo hinchable", "bouncy castle"), ("hormiga", "ant"), ("banqueta", "footstool"),
     ("altavoz", "loudspeaker")),
)
