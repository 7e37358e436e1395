// bpmn-moddle 10 ships element types but none for its entry point; this is the part Trellis calls.
declare module 'bpmn-moddle' {
  export interface FromXmlResult {
    rootElement: unknown;
    warnings: Array<{ message: string; element?: any; property?: string; value?: string; error?: Error }>;
    elementsById: Record<string, unknown>;
  }
  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string, options?: Record<string, unknown>): Promise<FromXmlResult>;
  }
}
