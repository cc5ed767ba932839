/**
 * The product-specific part of the welcome mail (issue 12): when the client's 'Tipo de proyecto'
 * names one of our products — AdmCloud, Restaurant.pe or Tiendao, in any case, with or without
 * accents or punctuation ("ERP AdmCloud", "tiendao app", "Restaurant PE") — the mail gives that
 * product's first steps; otherwise the general ones. The steps follow the product pages
 * (src/content/catalog).
 */
import { productById, PRODUCT_FIT, type ProductId } from '../../content/catalog/products.ts';

/** What the welcome mail says about the project: a paragraph, the numbered steps and, for a product, its page. */
export interface WelcomeSteps {
  product: ProductId | null;
  /** A paragraph about the product (none for the general text). */
  intro: string | null;
  steps: readonly string[];
  /** The product page on the public site (a path). */
  link?: { label: string; path: string };
}

/** Lower-case letters and digits only: "Restaurant.pe" → "restaurantpe", "ERP AdmCloud" → "erpadmcloud". */
function squeeze(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const PRODUCT_KEYS: ReadonlyArray<[ProductId, string]> = [
  ['admcloud', 'admcloud'],
  ['restaurantpe', 'restaurantpe'],
  ['tiendao', 'tiendao'],
];

/** The product a 'Tipo de proyecto' names, or null (the first one named when it names several). */
export function productOfProject(tipoProyecto: string): ProductId | null {
  const text = squeeze(tipoProyecto);
  let found: { id: ProductId; at: number } | null = null;
  for (const [id, key] of PRODUCT_KEYS) {
    const at = text.indexOf(key);
    if (at !== -1 && (!found || at < found.at)) found = { id, at };
  }
  return found?.id ?? null;
}

const PRODUCT_STEPS: Record<ProductId, readonly string[]> = {
  admcloud: [
    'Le enviaremos el acceso a su empresa en AdmCloud y agendaremos la reunión de arranque con su contador y la persona que factura.',
    'Prepare su catálogo de cuentas, el listado de clientes y suplidores y el inventario inicial (una hoja de cálculo basta): nosotros los cargamos por usted.',
    'Configuramos con usted la facturación electrónica (e-CF) —certificado digital, secuencias y conexión directa con la DGII— y emitimos juntos una factura de prueba.',
    'Capacitamos a su equipo con guías paso a paso y dejamos listos los formatos 606 y 607; la implementación completa toma de 4 a 6 semanas.',
  ],
  restaurantpe: [
    'Envíenos su menú con precios (una foto o un PDF sirven) y la lista de insumos: con eso armamos las recetas, para que cada venta descuente el inventario.',
    'Dibujamos con usted el mapa de mesas del salón y conectamos las impresoras o pantallas de cocina y de bar que recibirán las comandas.',
    'Capacitamos a meseros y cajeros en una sesión práctica: tomar la orden desde el celular, dividir cuentas, delivery y cierre de caja por turno.',
    'Activamos los comprobantes fiscales electrónicos (e-CF) y le acompañamos en su primer servicio en vivo; la puesta en marcha toma de 1 a 2 semanas.',
  ],
  tiendao: [
    'Envíenos su logo, los colores de su marca y el número de WhatsApp donde quiere recibir los pedidos.',
    'Nosotros configuramos el servidor, el subdominio y su app web: ni usted ni sus clientes tienen que instalar nada.',
    'Cargue sus productos con foto, precio y categoría desde el panel (o envíenos su lista y los cargamos por usted) y publique sus primeras ofertas.',
    'Comparta el enlace de su tienda con sus clientes por WhatsApp y redes sociales: en pocos días estará recibiendo pedidos.',
  ],
};

const PRODUCT_INTRO: Record<ProductId, string> = {
  admcloud: `Estos son sus primeros pasos con AdmCloud, su ERP en la nube: la implementación suele tomar ${PRODUCT_FIT.admcloud.timeline}.`,
  restaurantpe: `Estos son sus primeros pasos con Restaurant.pe, el punto de venta de su restaurante: la puesta en marcha suele tomar ${PRODUCT_FIT.restaurantpe.timeline}.`,
  tiendao: `Estos son sus primeros pasos con Tiendao, la app de pedidos por WhatsApp de su negocio: su tienda puede estar lista ${PRODUCT_FIT.tiendao.timeline}.`,
};

const GENERAL_STEPS: readonly string[] = [
  'Le contactaremos en los próximos días para acordar la reunión de arranque del proyecto.',
  'En esa reunión definimos juntos el alcance, el calendario y las personas clave de su equipo.',
  'Durante la implementación tendrá un consultor asignado y soporte en español, aquí en República Dominicana.',
];

/** The steps of the welcome mail for this 'Tipo de proyecto'. */
export function welcomeSteps(tipoProyecto: string): WelcomeSteps {
  const id = productOfProject(tipoProyecto);
  if (!id) {
    return {
      product: null,
      intro: null,
      steps: GENERAL_STEPS,
    };
  }
  const product = productById(id);
  return {
    product: id,
    intro: PRODUCT_INTRO[id],
    steps: PRODUCT_STEPS[id],
    link: { label: `Conozca ${product.name}`, path: product.link },
  };
}
