import { createRequire } from 'node:module';
import { BpmnModdle } from 'bpmn-moddle';
import type { ParseProblem } from '../../errors/exceptions.js';
import type { ProcessModel } from '../model/process-model.js';
import type { ModdleElement } from './moddle-element.js';
import { ParseReport } from './parse-report.js';
import { buildProcessModel, type TimeToLiveRules } from './process-model-builder.js';
import { reportModdleWarning, reportModdleFailure } from './moddle-problems.js';
import { elementPositions } from './xml-positions.js';

const camundaSchema = createRequire(import.meta.url)('camunda-bpmn-moddle/resources/camunda.json');
const moddle = new BpmnModdle({ camunda: camundaSchema });

export interface BpmnParseResult {
  targetNamespace: string | null;
  /** The executable processes, in document order. */
  processes: ProcessModel[];
  warnings: ParseProblem[];
  /** Whether the resource has a diagram (bpmndi) section. */
  diagramPresent: boolean;
}

export type BpmnParseOptions = TimeToLiveRules;

const DEFAULT_OPTIONS: BpmnParseOptions = { historyTimeToLive: null, enforceHistoryTimeToLive: false };

/**
 * Parses one BPMN 2.0 resource into immutable process models. Every problem is collected first;
 * then one ParseException (Camunda's ENGINE-09005) carries them all, with line and column.
 */
export async function parseBpmnResource(
  resourceName: string,
  xml: string,
  options: BpmnParseOptions = DEFAULT_OPTIONS,
): Promise<BpmnParseResult> {
  const report = new ParseReport(resourceName, elementPositions(xml));
  let definitions: ModdleElement | undefined;
  try {
    const result = await moddle.fromXML(xml, 'bpmn:Definitions');
    definitions = result.rootElement as unknown as ModdleElement;
    for (const warning of result.warnings) reportModdleWarning(report, warning);
  } catch (error) {
    reportModdleFailure(report, error);
  }
  if (!definitions) {
    report.throwIfErrors();
    throw new Error('unreachable: a failed parse reports an error');
  }

  const processes: ProcessModel[] = [];
  const rootElements = (definitions.rootElements ?? []) as ModdleElement[];
  for (const process of rootElements.filter((element) => element.$type === 'bpmn:Process')) {
    if (process.isExecutable !== true) {
      report.warning(
        `ENGINE-01002 Ignoring non-executable process with id '${process.id}'. Set the attribute isExecutable="true" to deploy this process.`,
        process.id ?? null,
      );
      continue;
    }
    const model = buildProcessModel(process, definitions, report, options);
    if (model) processes.push(model);
  }
  if (processes.length === 0 && report.errors.length === 0) {
    report.error('No executable process found: set isExecutable="true" on at least one process', definitions.id ?? null);
  }
  report.throwIfErrors();
  return {
    targetNamespace: definitions.targetNamespace ?? null,
    processes,
    warnings: report.warnings,
    diagramPresent: ((definitions.diagrams ?? []) as unknown[]).length > 0,
  };
}
