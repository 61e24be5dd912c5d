import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FilterOptions, RowFilter } from '../../lib/filters';
import { EMPTY_FILTER } from '../../lib/filters';

export type ListKey = 'clusters' | 'namespaces' | 'phases' | 'providers';
const ALL_LISTS: ListKey[] = ['clusters', 'namespaces', 'phases', 'providers'];

const LABELS: Record<ListKey, string> = {
  clusters: 'Cluster',
  namespaces: 'Namespace',
  phases: 'Phase',
  providers: 'Provider',
};

/** The dashboard's filters; every control is labelled. */
export function Filters(props: {
  filter: RowFilter;
  options: FilterOptions;
  onChange: (filter: RowFilter) => void;
  /** The list filters shown (default: all four); models and stacks have no provider. */
  lists?: ListKey[];
  /** What is filtered, for the search landmark's name (default "deployments"). */
  what?: string;
  placeholder?: string;
}) {
  const {
    filter,
    options,
    onChange,
    lists = ALL_LISTS,
    what = 'deployments',
    placeholder = 'name, model, engine…',
  } = props;
  const select = (key: ListKey) => (
    <TextField
      key={key}
      select
      size="small"
      label={LABELS[key]}
      id={`runway-filter-${key}`}
      value={filter[key]}
      sx={{ minWidth: 150 }}
      SelectProps={{
        multiple: true,
        renderValue: selected =>
          (selected as string[]).length
            ? (selected as string[]).join(', ')
            : 'All',
        displayEmpty: true,
      }}
      InputLabelProps={{ shrink: true }}
      onChange={e => {
        const value = e.target.value as unknown as string[] | string;
        onChange({
          ...filter,
          [key]: typeof value === 'string' ? value.split(',') : value,
        });
      }}
    >
      {options[key].map(option => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ mb: 2, flexWrap: 'wrap', rowGap: 2 }}
      component="form"
      role="search"
      aria-label={`filter ${what}`}
      onSubmit={e => e.preventDefault()}
    >
      {lists.map(select)}
      <TextField
        size="small"
        label="Search"
        id="runway-filter-text"
        placeholder={placeholder}
        value={filter.text}
        onChange={e => onChange({ ...filter, text: e.target.value })}
      />
      <Button
        onClick={() => onChange(EMPTY_FILTER)}
        disabled={JSON.stringify(filter) === JSON.stringify(EMPTY_FILTER)}
      >
        Clear filters
      </Button>
    </Stack>
  );
}
