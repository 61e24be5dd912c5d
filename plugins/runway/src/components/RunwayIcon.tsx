import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';

/** A runway with a plane's path: the nav item icon. */
export function RunwayIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M10 2h4l3 20H7L10 2zm1.2 3-.3 3h2.2l-.3-3h-1.6zm-.6 6-.3 3h3.4l-.3-3h-2.8zm-.6 6-.4 3h4.8l-.4-3h-4z" />
    </SvgIcon>
  );
}
