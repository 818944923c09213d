// The catalogue as a spreadsheet: export and import.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/spreadsheet')({
  head: privatePageHead('Spreadsheet · Desk'),
  component: () => <DeskPage title="Spreadsheet">{null}</DeskPage>,
});
