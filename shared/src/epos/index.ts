/** The ePOS-Print XML interpreter: what an Epson TM printer prints from an `<epos-print>` document. */
export { interpretEposXml, EPOS_PRINT_NAMESPACE } from './interpreter.js';
export { parseXml, XmlError, type XmlElement, type XmlNode } from './xml.js';
