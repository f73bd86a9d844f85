/**
 * Documents on label printers, as the agent loads them (with the first label document, like
 * pdf.js and sharp): the drawing lives in @printwire/shared/documents, where the cloud's sandbox
 * draws the preview of the same bytes.
 */
export {
  imageOnLabel,
  labelBox,
  labelsOfPages,
  pdfOnLabels,
  renderDocumentForLabel,
  type LabelDocumentOptions,
  type LabelPaper,
} from '@printwire/shared/documents/index';
